import { describe, expect, it } from 'vitest';
import { replayHtml } from './replay-html.ts';

describe('replayHtml', () => {
  const frames = [
    { step: 1, label: 'GOAL "A /\\ B"', svg: '<svg><text>A /\\ B</text></svg>' },
    { step: 2, label: 'APPLY split </script><script>alert(1)</script>', svg: '<svg><text>A</text></svg>' },
  ];
  const html = replayHtml('A <proof>', frames);

  it('carries every frame inline and needs no network', () => {
    const data = /<script id="frames" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const parsed = JSON.parse(data) as typeof frames;
    expect(parsed).toEqual(frames);
    expect(html).not.toMatch(/\b(src|href)=["']?https?:/);
    expect(html).toContain('<title>A &lt;proof&gt;</title>');
  });

  it('a label cannot close the data script', () => {
    const data = /<script id="frames" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(data).not.toContain('<');
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('offers the derivation and the state when frames carry both, opening on the derivation', () => {
    const both = replayHtml('p', [{ step: 1, label: 'GOAL', svg: '<svg id="s"/>', derivation: '<svg id="d"/>' }]);
    expect(both).toContain('id="view-derivation" aria-pressed="true"');
    expect(both).toContain('id="view-state"');
    expect(html).not.toContain('id="view-derivation"');
  });
});

describe('the replay page opens readable and zooms', () => {
  it('fits with a minimum scale (text stays at 10 px or more), and has zoom buttons and wheel zoom', () => {
    const html = replayHtml('p', [{ step: 1, label: 'GOAL', svg: '<svg width="9000" height="7000"/>' }]);
    expect(html).toContain(`var MIN_SCALE = ${10 / 11}`);
    for (const id of ['zoom-in', 'zoom-out', 'zoom-fit']) expect(html).toContain(`id="${id}"`);
    expect(html).toContain("addEventListener('wheel'");
  });

  it('shows a failed request\'s error with its frame', () => {
    const html = replayHtml('p', [{ step: 3, label: 'APPLY bad', error: 'no such lemma', svg: '<svg/>' }]);
    expect(html).toContain('"error":"no such lemma"');
  });
});
