import choicesFile from '@fflkit/types/choices.json';

// The contract's choices (its `x-fflkit-choice` markers, listed by `pnpm generate` in
// `@fflkit/types/choices.json`), and which of them a failed check contradicts: the choice that
// governs the longest prefix of the contract location where the check failed.

/** How a choice can be checked against a running service. */
export type ChoiceProbe = 'read' | 'write' | 'traffic' | 'none';

/** One choice of the contract: a rule it states where the service's interface document is silent. */
export interface ContractChoice {
  /** A stable id, such as `pagination.per-page`. */
  readonly id: string;
  /** The rule, in a sentence. */
  readonly rule: string;
  /**
   * How it can be checked: `read` by a read-only probe, `write` by a probe that writes,
   * `traffic` in real traffic only (the proxy), `none` not from outside.
   */
  readonly probe: ChoiceProbe;
  /** What is sent and what is expected, in a sentence. */
  readonly how: string;
  /** The document that states it: `openapi.yaml`. */
  readonly document: string;
  /** The places of the document that mark it (JSON pointers, `#/components/...`). */
  readonly where: readonly string[];
  /** The contract locations whose checks it decides. */
  readonly governs: readonly string[];
}

/** Every choice of the contract, by id in alphabetical order. */
export const CONTRACT_CHOICES: readonly ContractChoice[] = (choicesFile as { choices: ContractChoice[] }).choices;

const byId = new Map(CONTRACT_CHOICES.map((choice) => [choice.id, choice]));

/** The choice of `id`, or `undefined` when the contract has none of that id. */
export function findChoice(id: string): ContractChoice | undefined {
  return byId.get(id);
}

/**
 * The id of a choice the code names, checked against the contract when the module that names it
 * loads, so that a renamed choice fails every test that loads it rather than going quiet.
 */
export function choiceId(id: string): string {
  if (!byId.has(id)) {
    throw new Error(`[@fflkit/sandbox] the contract has no choice ${id}: rebuild @fflkit/types (pnpm generate)`);
  }
  return id;
}

/** Each location a choice governs, longest first, so that the first prefix found is the nearest. */
const governed = CONTRACT_CHOICES.flatMap((choice) => choice.governs.map((location) => ({ location, id: choice.id })))
  .filter(({ id }) => findChoice(id)?.document === 'openapi.yaml')
  .sort((a, b) => b.location.length - a.location.length);

/**
 * The id of the choice that governs a location of the service contract (`#/components/schemas/
 * PaginationMeta/properties/total`), or `null` when what failed there is the service's own rule.
 */
export function choiceGoverning(location: string): string | null {
  for (const entry of governed) {
    if (location === entry.location || location.startsWith(`${entry.location}/`)) return entry.id;
  }
  return null;
}
