import type { OpenBlock } from './document-blocks.ts';
import { coqTrim } from './coq-sentence.ts';

/**
 * Inside an open functor `Module F (X : T). … End F.`, the fields of its parameter X are no axioms: every
 * module F is applied to must give them, and after `End F` nothing of them remains assumed. Coq's
 * `Print Assumptions` lists them as axioms inside F all the same. A field is taken as the parameter's only
 * when Coq's answers say so: `Locate Term` resolves it to a kernel path rooted at the bound module itself
 * (`X.x`, `X.Sub.x`; every other constant's path starts with its library: `Top.X.x`, `Coq.…`), X is a
 * parameter of a functor open here, and no loaded library's path starts with X (`Print Libraries`) — so a
 * parameter named `Coq` cannot pass a library's axiom off as its field. A name alone never passes.
 */
export async function functorParameterField(
  kernelName: string,
  open: readonly OpenBlock[],
  loadedLibraries: () => Promise<readonly string[] | undefined>,
): Promise<{ functorParameter: string } | undefined> {
  const root = kernelName.split('.')[0] ?? '';
  // `Top` is the document's own library (coqidetop's default), not listed among the loaded ones.
  if (root === kernelName || root === 'Top' || !open.some((b) => b.kind === 'module' && (b.params ?? []).includes(root))) return undefined;
  const libraries = await loadedLibraries();
  if (libraries === undefined || libraries.some((l) => l === root || l.startsWith(`${root}.`))) return undefined;
  return { functorParameter: kernelName };
}

/** The library paths a `Print Libraries` answer lists (the indented lines after its heading). */
export const librariesFromPrint = (text: string): string[] =>
  // Coq's blanks only: a library path may hold a no-break space, part of a name.
  text.split('\n').filter((l) => /^[ \t]+[^ \t\r\n]+[ \t\r]*$/.test(l)).map(coqTrim);
