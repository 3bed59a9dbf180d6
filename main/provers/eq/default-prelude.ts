/**
 * The prelude used when a channel sets none: the loop axioms and the five defined operations of
 * loop theory (standard definitions, written here as facts in ARTICLE form). The AIM axioms and the
 * known lemmas come only from a problem's own preamble.
 */
export const DEFAULT_PRELUDE = [
  'ARTICLE',
  'Axiom lid : e * x = x.',
  'Axiom rid : x * e = x.',
  'Axiom b1 : x \\ (x * y) = y.',
  'Axiom b2 : x * (x \\ y) = y.',
  'Axiom s1 : (x * y) / y = x.',
  'Axiom s2 : (x / y) * y = x.',
  'Definition a(x,y,z) := (x*(y*z)) \\ ((x*y)*z).',
  'Definition K(x,y) := (y*x)\\(x*y).',
  'Definition T(u,x) := x \\ (u*x).',
  'Definition L(u,x,y) := (y*x) \\ (y*(x*u)).',
  'Definition R(u,x,y) := ((u*x)*y)/(x*y).',
  '',
].join('\n');
