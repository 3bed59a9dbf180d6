import { SaxesParser } from 'saxes';

/** A parsed XML element of coqidetop's output; children keep text and elements in document order. */
export interface XmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export const isElement = (n: XmlNode | undefined): n is XmlElement => typeof n === 'object' && n !== null;

/** Element children only (coqidetop's structural tags never carry meaningful text between them). */
export const elems = (e: XmlElement): XmlElement[] => e.children.filter(isElement);

export const child = (e: XmlElement, i: number, tag?: string): XmlElement => {
  const c = elems(e)[i];
  if (!c || (tag !== undefined && c.tag !== tag)) {
    throw new Error(`coqidetop XML: expected <${tag ?? '*'}> at ${i} in <${e.tag}>`);
  }
  return c;
};

/** All text below `e`, tags stripped (richpp: the highlighting tags only wrap text). */
export const textOf = (e: XmlNode): string => (typeof e === 'string' ? e : e.children.map(textOf).join(''));

/** Characters XML 1.0 does not allow, which Coq writes out as they are when a user's string holds them. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/g;

/**
 * Streaming parser for coqidetop's stdout: a sequence of top-level elements (values and feedback
 * interleaved) with no enclosing root, so saxes runs in fragment mode. Each complete top-level element
 * is handed to `onElement`.
 */
export class XmlStream {
  private readonly parser = new SaxesParser({ fragment: true });
  private readonly stack: XmlElement[] = [];
  /**
   * Inside a `<richpp>`: its text so far and how deep the highlighting tags are open. Every reader takes a
   * richpp's text only (`textOf`), so its markup — a tag around each word of a printed term — never becomes
   * elements: a `Print` of a proof is thousands of them.
   */
  private flat: { text: string[]; depth: number } | undefined;

  constructor(onElement: (e: XmlElement) => void) {
    // Coq's richpp uses HTML's &nbsp;; it becomes an ordinary blank so terms can be sent back as input.
    Object.assign(this.parser.ENTITIES, { nbsp: ' ' });
    this.parser.on('opentag', (tag) => {
      if (this.flat !== undefined) {
        this.flat.depth++;
        return;
      }
      const attrs: Record<string, string> = {};
      for (const [k, v] of Object.entries(tag.attributes)) attrs[k] = typeof v === 'string' ? v : v.value;
      const el: XmlElement = { tag: tag.name, attrs, children: [] };
      this.stack.at(-1)?.children.push(el);
      this.stack.push(el);
      if (el.tag === 'richpp') this.flat = { text: [], depth: 0 };
    });
    this.parser.on('text', (t) => {
      if (this.flat !== undefined) this.flat.text.push(t);
      else this.stack.at(-1)?.children.push(t);
    });
    this.parser.on('closetag', () => {
      if (this.flat !== undefined) {
        if (this.flat.depth > 0) {
          this.flat.depth--;
          return;
        }
        // The richpp itself closes: its text is its one child.
        const text = this.flat.text.join('');
        this.flat = undefined;
        if (text !== '') this.stack.at(-1)?.children.push(text);
      }
      const el = this.stack.pop();
      if (el && this.stack.length === 0) onElement(el);
    });
  }

  /** A chunk's last `&`, kept until the next chunk tells whether a `#` follows it. */
  private held = '';

  /**
   * Throws on malformed XML (the caller treats that as a protocol failure). Coq's XML printer escapes `&`
   * except before `#` (xml_printer.ml), so every `&#` it writes is the user's own text passed through: read
   * as a character reference it would show other text than Coq holds (`"&#65;"` as `"A"`), or end the
   * channel (`idtac "&#zz;"` is malformed XML). It is read as the text it is. Likewise the control
   * characters a string literal can hold, which XML 1.0 has no way to carry: each is shown as U+FFFD.
   */
  write(chunk: string): void {
    let text = this.held + chunk;
    this.held = text.endsWith('&') ? '&' : '';
    if (this.held !== '') text = text.slice(0, -1);
    this.parser.write(text.replace(/&#/g, '&amp;#').replace(NOT_XML, '\uFFFD'));
  }
}
