import { CliUsageError, switchOf, textOf } from './options';
import type { Subcommand } from './subcommand';

// `fflkit-sandbox choices`: the contract's choices, each rule it states where the service's
// interface document is silent, as `@fflkit/types/choices.json` lists them; as text to read, or
// as JSON for a tool.

const PROBES = ['read', 'write', 'traffic', 'none'] as const;

/** The width the rules are wrapped to, after their indent. */
const WIDTH = 88;

/** `fflkit-sandbox choices [--probe <kind>] [--json]`. */
export const choicesCommand: Subcommand = {
  name: 'choices',
  summary: "List the contract's choices: its rules where the service's document is silent",
  usage: '[--probe <read|write|traffic|none>] [--json]',
  description: `Lists the contract's choices: every rule that openapi.yaml states where the service's
interface document is silent ("Not shown in the service's interface document; this contract's
choice: ..."), each marked there with x-fflkit-choice. For each: its stable id, how it can be
checked against a running service, and the rule:

  read      a read-only probe of fflkit-sandbox conformance checks it
  write     a probe that writes checks it (conformance --allow-writes)
  traffic   fflkit-sandbox proxy checks it in real traffic
  none      it cannot be seen from outside

fflkit-sandbox proxy and fflkit-sandbox conformance name the choice a service contradicts by
its id. The same list ships in @fflkit/types/choices.json.
`,
  options: [
    {
      flag: 'probe',
      kind: 'value',
      placeholder: '<kind>',
      help: ['Only the choices checked so: read, write, traffic or none'],
    },
    { flag: 'json', kind: 'switch', help: ['Print them as JSON, {"choices": [...]}, for machines'] },
  ],
  async run({ options, out }) {
    const probe = textOf(options, 'probe');
    if (probe !== undefined && !(PROBES as readonly string[]).includes(probe.value)) {
      throw new CliUsageError(`--probe takes one of ${PROBES.join(', ')}, not ${JSON.stringify(probe.value)}`);
    }
    const { CONTRACT_CHOICES } = await import('./drift-tools');
    const choices = CONTRACT_CHOICES.filter((choice) => probe === undefined || choice.probe === probe.value);
    if (switchOf(options, 'json')) {
      out(`${JSON.stringify({ choices }, null, 2)}\n`);
      return 0;
    }
    const lines: string[] = [];
    for (const choice of choices) {
      lines.push(`${choice.id}  (${choice.probe})`, ...wrap(choice.rule).map((line) => `    ${line}`));
    }
    const counts = PROBES.map((kind) => `${choices.filter((choice) => choice.probe === kind).length} ${kind}`);
    out(`${lines.join('\n')}\n\n${choices.length} choices: ${counts.join(', ')}.\n`);
    return 0;
  },
};

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
