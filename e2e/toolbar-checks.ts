import type { Page } from 'playwright-core';

/** Controls of the toolbars whose text is cut without a tooltip, that wrap, or that stick out of their bar. */
export function cutControls(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const bad: string[] = [];
    const ctx = document.createElement('canvas').getContext('2d')!;
    const textWidth = (el: Element, text: string): number => {
      const cs = getComputedStyle(el);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return ctx.measureText(text).width;
    };
    for (const el of document.querySelectorAll<HTMLElement>('.toolbar button, .toolbar span, .tree-toolbar button, .tree-toolbar input, .tree-toolbar select, .tree-toolbar summary, .tree-toolbar label, .tree-toolbar span, .panel-toolbar button, .panel-toolbar select')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const cs = getComputedStyle(el);
      const name = `${el.tagName.toLowerCase()}[${el.dataset.testid ?? el.className ?? ''}] "${(el.textContent ?? (el as HTMLInputElement).placeholder ?? '').trim().slice(0, 40)}"`;
      const bar = el.closest('.toolbar, .tree-toolbar-row, .replay-bar, .replay-stop, .panel-toolbar, .source-banner') as HTMLElement | null;
      if (bar) {
        const b = bar.getBoundingClientRect();
        if (r.right > b.right + 1 || r.left < b.left - 1) bad.push(`${name}: outside its bar`);
      }
      const lineHeight = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.4;
      const pad = parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom) + parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth);
      if (el.tagName === 'BUTTON' && r.height > pad + lineHeight * 1.5) bad.push(`${name}: wraps (${Math.round(r.height)} px high)`);
      const titled = el.title !== '' || (el.closest('[title]') as HTMLElement | null)?.title;
      const ellipsis = cs.textOverflow === 'ellipsis';
      let room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      if (el instanceof HTMLSelectElement) {
        const shown = el.selectedOptions[0]?.textContent ?? '';
        room -= 16; // the drop-down arrow
        if (textWidth(el, shown) > room + 1 && !el.title.includes(shown.trim())) bad.push(`${name}: shows "${shown}" cut, without it in its tooltip`);
        continue;
      }
      if (el instanceof HTMLInputElement) {
        const shown = el.value || el.placeholder;
        if (el.type !== 'range' && el.type !== 'checkbox' && textWidth(el, shown) > room + 1 && !titled) bad.push(`${name}: "${shown}" cut without a tooltip`);
        continue;
      }
      if (el.scrollWidth > el.clientWidth + 1 && !(ellipsis && titled)) bad.push(`${name}: cut (${el.scrollWidth} > ${el.clientWidth}) ${ellipsis ? '' : 'without an ellipsis'} ${titled ? '' : 'without a tooltip'}`);
    }
    return bad;
  });
}
