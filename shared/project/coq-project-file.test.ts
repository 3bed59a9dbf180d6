import { describe, expect, it } from 'vitest';
import { coqProjectWords, parseCoqProject, splitExtraArgs } from './coq-project-file.ts';

describe('_CoqProject as Coq reads it', () => {
  it('splits words on blanks, drops # comments, keeps "quoted blanks"', () => {
    expect(coqProjectWords('-Q theories Lib # the library\n-arg "-w -deprecated"\n"my dir/A.v"#c\n')).toEqual(['-Q', 'theories', 'Lib', '-arg', '-w -deprecated', 'my dir/A.v']);
    expect(() => coqProjectWords('-arg "open')).toThrow(/unterminated string/);
  });

  it("splits -arg values on unquoted spaces; single quotes group", () => {
    expect(splitExtraArgs("-w -notation-overridden")).toEqual(['-w', '-notation-overridden']);
    expect(splitExtraArgs("-set 'Hammer PredictPath=x'")).toEqual(['-set', 'Hammer PredictPath=x']);
  });

  it('keeps -Q/-R load paths and allow-listed options; reports the rest with why', () => {
    const p = parseCoqProject([
      '-R src My.Lib', '-Q theories Lib', '-arg -w -arg -notation-overridden', '-arg "-w +all"',
      '-arg -noinit', '-arg "-load-vernac-source evil.v"', '-I plugins', 'COQC = coqc', 'src/A.v', '-Q dir bad-name',
    ].join('\n'));
    expect(p.loadPaths).toEqual([{ kind: 'R', dir: 'src', logical: 'My.Lib' }, { kind: 'Q', dir: 'theories', logical: 'Lib' }]);
    expect(p.args).toEqual(['-w', '-notation-overridden', '-w', '+all']);
    const ignored = p.ignored.join('\n');
    expect(ignored).toMatch(/-arg -noinit: not on the allow-list/);
    expect(ignored).toMatch(/-arg -load-vernac-source: not on the allow-list/);
    expect(ignored).toMatch(/-arg evil\.v: not on the allow-list/);
    expect(ignored).toMatch(/-I plugins: OCaml plugins/);
    expect(ignored).toMatch(/-Q dir bad-name: not a logical path/);
    expect(p.files).toEqual(['src/A.v']);
  });

  it('a primed or unicode logical name is a name', () => {
    expect(parseCoqProject("-Q d Lib'.Σ").loadPaths).toEqual([{ kind: 'Q', dir: 'd', logical: "Lib'.Σ" }]);
  });
});
