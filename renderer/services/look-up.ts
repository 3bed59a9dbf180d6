import type { QueryKind } from '../../shared/protocol/format-query.ts';
import type { AboutAnswer, QueryAnswer, SearchAnswer } from '../../shared/protocol/query-answer.ts';
import { useArbor } from '../store/store.ts';
import { lookUp } from './arbor-api.ts';

export type LookUpResult = { answer: QueryAnswer } | { error: string };

/**
 * Look-ups for the active document: on its channel (so its own declarations and theorems, and inside a
 * proof its hypotheses, are in scope), or in the library when the document has no channel yet.
 */
export function lookUpInActiveDocument(kind: QueryKind, text: string): Promise<LookUpResult> {
  const s = useArbor.getState();
  const uri = s.documents.activeUri;
  const channel = uri ? s.documents.docs[uri]?.channel : undefined;
  return lookUp(kind, text, channel);
}

/** Hovers ask again and again for the same names: answers are kept per channel state. */
const aboutCache = new Map<string, Promise<AboutAnswer | undefined>>();

export function aboutForHover(name: string): Promise<AboutAnswer | undefined> {
  const s = useArbor.getState();
  const uri = s.documents.activeUri;
  const channel = uri ? s.documents.docs[uri]?.channel : undefined;
  const step = uri ? s.checking[uri]?.entries.at(-1)?.stepAfter ?? 0 : 0;
  const key = `${channel ?? '-'}:${step}:${name}`;
  let hit = aboutCache.get(key);
  if (!hit) {
    if (aboutCache.size > 500) aboutCache.clear();
    hit = lookUp('about', name, channel).then((r) => ('answer' in r ? (r.answer as AboutAnswer) : undefined), () => undefined);
    aboutCache.set(key, hit);
  }
  return hit;
}

/** The lemmas the latest searches found (newest first): completion inside a tactic offers them. */
let found: { name: string; type: string }[] = [];
export const recentSearchResults = (): { name: string; type: string }[] => found;

export async function searchLemmas(pattern: string): Promise<SearchAnswer> {
  const r = await lookUpInActiveDocument('search', pattern);
  if ('error' in r) throw new Error(r.error);
  const answer = r.answer as SearchAnswer;
  const fresh = answer.results.map((x) => ({ name: x.name, type: x.type }));
  found = [...fresh, ...found.filter((f) => !fresh.some((x) => x.name === f.name))].slice(0, 200);
  return answer;
}
