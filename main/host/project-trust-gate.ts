import { randomInt } from 'node:crypto';
import type { ProjectTrustStatus } from '../../shared/api/project-trust.ts';

/** Letters and digits nobody misreads (no 0/O, 1/I/L): 8 of them are 40 bits. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const CODE_LENGTH = 8;
/** Wrong codes before the question closes (until Arbor restarts): guessing 40 bits five times is hopeless. */
export const MAX_WRONG_CODES = 5;

const normalise = (code: string): string => code.toUpperCase().replace(/[^0-9A-Z]/g, '');

/**
 * The web workbench's question "trust the assumptions the workspace's arbor.project.json declares?".
 * Any program holding the web token can call the API exactly as the page does, so a click alone proves
 * nothing: the grant needs a one-time code that Arbor prints only on its own terminal (`log`), never
 * through the API or its events, and the user types it into the page's confirmation. A client that only
 * talks to the API cannot read it; five wrong codes close the question until Arbor restarts.
 */
export class ProjectTrustGate {
  private code: string | undefined;
  private wrong = 0;
  private state: ProjectTrustStatus['state'];

  constructor(
    readonly path: string | undefined,
    readonly assumptions: readonly string[],
    log: (line: string) => void,
  ) {
    if (path === undefined || assumptions.length === 0) {
      this.state = 'none';
      return;
    }
    this.code = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    this.state = 'asked';
    log(`Arbor: ${path} declares assumptions (${assumptions.join(', ')}); they stay untrusted unless you trust them in the workbench, which asks for this code: ${this.code.slice(0, 4)}-${this.code.slice(4)}`);
  }

  /** Whether the user confirmed the project's assumptions (sessions read this when they judge a proof). */
  get granted(): boolean {
    return this.state === 'granted';
  }

  /** What the page shows; never the code. */
  status(): ProjectTrustStatus {
    return { state: this.state, ...(this.path !== undefined ? { path: this.path } : {}), assumptions: [...this.assumptions] };
  }

  /** The page's confirmation: the code the user typed (trust), or null (keep them untrusted). */
  answer(code: string | null): ProjectTrustStatus {
    if (this.state !== 'asked' || this.code === undefined) throw new Error(this.state === 'none' ? 'the workspace project declares no assumptions' : `the project's assumptions were already ${this.state === 'granted' ? 'trusted' : 'kept untrusted'}`);
    if (code === null) {
      this.state = 'declined';
      this.code = undefined;
    } else if (normalise(code) === this.code) {
      this.state = 'granted';
      this.code = undefined;
    } else if (++this.wrong >= MAX_WRONG_CODES) {
      this.state = 'declined';
      this.code = undefined;
      throw new Error(`wrong code ${MAX_WRONG_CODES} times: the project's assumptions stay untrusted until Arbor restarts`);
    } else {
      throw new Error('wrong code: type the code Arbor printed in the terminal where it runs');
    }
    return this.status();
  }
}
