/** Monaco's id of the proof-shell language (the editor registers it; models are created in it). */
export const SHELL_LANGUAGE_ID = 'arbor-shell';
