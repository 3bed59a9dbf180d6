import escapeStringRegexp from 'escape-string-regexp';

/** Every character a RegExp gives a meaning to, escaped: a Coq name (primes, dots, unicode) is data. */
export const escapeRegExp = (text: string): string => escapeStringRegexp(text);

/** Where the Coq name `name` occurs as a whole name (not inside `name'`, `x_name` or `M.name`): group 1 is what precedes it. */
export const nameOccurrence = (name: string, flags = 'u'): RegExp => new RegExp(`(^|[^\\p{L}\\p{N}_'.])${escapeRegExp(name)}(?![\\p{L}\\p{N}_'])`, flags);
