/**
 * A reproduction script as the file its prover checks: Coq `.v`, Lean `.lean`, Isabelle `.thy` (whose
 * theory name must be the file's base name, so an existing header is renamed and a missing one added).
 */
export function toTheory(script: string, theoryName: string, imports: readonly string[] = ['Main']): string {
  if (!/^[A-Za-z][A-Za-z0-9_']*$/.test(theoryName)) throw new Error(`not an Isabelle theory name: ${theoryName}`);
  const header = /^\s*theory\s+("?)[^\s"]+\1/m;
  if (header.test(script)) return script.replace(header, `theory ${theoryName}`);
  const body = script.trimEnd();
  return `theory ${theoryName}\n  imports ${imports.join(' ')}\nbegin\n\n${body}\n\nend\n`;
}

/** The file name and text to save a backend's reproduction script as (`base` is a file-name stem). */
export function scriptFile(backend: string, script: string, base = 'arbor_proof'): { name: string; text: string } {
  const stem = base.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '') || 'arbor_proof';
  switch (backend) {
    case 'isabelle': return { name: `${stem}.thy`, text: toTheory(script, stem) };
    case 'lean': return { name: `${stem}.lean`, text: script };
    default: return { name: `${stem}.v`, text: script }; // coq, and eq whose script is a Coq file
  }
}
