import type { TreeLayout } from './layout-tree.ts';
import { edgePathData, edgeRoute } from './edge-route.ts';
import { contentOf } from './layout-tree.ts';
import { DISPLAY_STATUSES, STATUS_STYLE } from './display-status.ts';
import { chipBoxes } from './chip-boxes.ts';
import { ACTION_HEIGHT, CHAR_WIDTH, FOOTER_STYLE, HEADER_HEIGHT, PADDING, TITLE_COLOR, nodeTextLayout } from './node-content.ts';

const esc = (t: string): string => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The whole laid-out tree as a standalone SVG document (export), with the legend; same look as the canvas. */
export function treeToSvg(layout: TreeLayout, options: { title?: string; selected?: number } = {}): string {
  const margin = 20;
  const legendH = 28;
  const width = Math.ceil(layout.width + 2 * margin);
  const height = Math.ceil(layout.height + 2 * margin + legendH);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12">`);
  if (options.title) out.push(`<title>${esc(options.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="#ffffff"/>`);
  // Legend
  let lx = margin;
  for (const s of DISPLAY_STATUSES) {
    const st = STATUS_STYLE[s];
    out.push(`<rect x="${lx}" y="8" width="14" height="14" rx="3" fill="${st.fill}" stroke="${st.stroke}" stroke-width="2"/><text x="${lx + 19}" y="19" fill="#333">${st.label}</text>`);
    lx += 24 + st.label.length * CHAR_WIDTH + 12;
  }
  out.push(`<g transform="translate(${margin},${margin + legendH})">`);
  out.push('<g class="edges" fill="none" stroke="#9aa0ad" stroke-width="1.2">');
  for (const n of layout.nodes) {
    const p = layout.nodes[n.parent];
    if (!p) continue;
    out.push(`<path d="${edgePathData(edgeRoute(p, n, layout.columnGap))}"/>`);
  }
  out.push('</g><g class="nodes">');
  for (const n of layout.nodes) {
    const content = contentOf(n);
    const text = nodeTextLayout(content, n.h);
    const st = STATUS_STYLE[n.status];
    const strokeWidth = n.current === 'goal' ? 3 : n.current === 'bundle' ? 2.5 : 1.2;
    out.push(`<g data-id="${n.id}" data-status="${n.status}"${n.current ? ` data-current="${n.current}"` : ''}${n.view.action ? ` data-action="${esc(n.view.action)}"` : ''} transform="translate(${n.x},${n.y})">`);
    out.push(`<rect width="${n.w}" height="${n.h}" rx="5" fill="${n.view.summary ? '#eef2ee' : st.fill}" stroke="${n.id === options.selected ? '#111' : st.stroke}" stroke-width="${strokeWidth}"${n.current === 'bundle' || n.view.summary ? ' stroke-dasharray="5 3"' : ''}/>`);
    out.push(`<circle cx="${PADDING + 4}" cy="${HEADER_HEIGHT / 2}" r="4" fill="${st.stroke}"/>`);
    for (const l of text.labels) out.push(`<text x="${PADDING + 14}" y="${l.y + 4}" fill="${TITLE_COLOR[content.titleKind ?? 'goal']}">${esc(l.text)}</text>`);
    for (const box of chipBoxes(content, text.chipsTop)) {
      out.push(`<g class="chip"><rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="8" fill="#ffffff" stroke="#c5c8d2"/>${box.lines.map((l) => `<text x="${l.x}" y="${l.y + 3}" font-size="11" fill="#374">${esc(l.text)}</text>`).join('')}</g>`);
    }
    const first = text.footer[0];
    if (first) out.push(`<line x1="4" x2="${n.w - 4}" y1="${first.y}" y2="${first.y}" stroke="${st.stroke}" stroke-width="0.6"/>`);
    for (const f of text.footer) {
      const style = FOOTER_STYLE[f.kind];
      out.push(`<text x="${PADDING}" y="${f.y + ACTION_HEIGHT / 2 + 4}" font-size="11" fill="${style.color}"${style.italic ? ' font-style="italic"' : ''} class="${f.kind}">${esc(f.text)}</text>`);
    }
    out.push('</g>');
  }
  out.push('</g></g></svg>');
  return out.join('\n');
}
