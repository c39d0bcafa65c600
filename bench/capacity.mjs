// How far one sandbox goes: a shared team sandbox on a data file, 1,000 accounts of 1,000
// receipts and 100 accounts of 10,000 (2 million receipts). Each account is made through the
// control API with one receipt posted through the API; the data file is then grown by copying
// each account's receipt (extend-data-file.mjs) and cached in bench/.cache/. Measured: the open
// (spawn to the first authenticated 200) and its peak RSS, GET and POST p50/p99 with the
// requests spread over every account, the RSS held per receipt (net of an empty sandbox's), and
// from it how many receipts one sandbox holds per GB. Takes about 3 to 5 minutes, most of it the
// seeding (once per build) and the open.
import { numberedReceiptBody } from '@fflkit/test-fixtures';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extendAccounts } from './extend-data-file.mjs';
import { requestJson } from './http-request.mjs';
import { loadProblems, runLoad } from './load.mjs';
import { mb, num, printHeading, printNote, printTable, printTargets, progress, target } from './report.mjs';
import { authorization, createAccount, receiptCount, sandboxBuilt, startSandbox } from './sandbox-server.mjs';
import { buildKey, CACHE_DIR } from './seeded-sandbox.mjs';

export const description =
  'a shared team sandbox: 1,000 accounts of 1,000 receipts and 100 of 10,000: open, peak RSS, GET and POST p99 over the accounts, RSS per receipt (3 to 5 min)';

/** The accounts of the team sandbox: how many, of how many receipts each. */
const GROUPS = [
  { accounts: 1_000, receipts: 1_000 },
  { accounts: 100, receipts: 10_000 },
];
const ACCOUNTS = GROUPS.reduce((sum, group) => sum + group.accounts, 0);
const RECEIPTS = GROUPS.reduce((sum, group) => sum + group.accounts * group.receipts, 0);
const CONNECTIONS = 10;
const SECONDS = 10;
/** Accounts made and receipts posted at once while seeding. */
const SEED_CONCURRENCY = 8;
const STOP_GRACE_MS = 10_000;
const GB = 2 ** 30;

export async function run({ scratchDir, reseed }) {
  printHeading(
    'How far one sandbox goes',
    `A team sandbox on a data file (--rate-limit 0) holding ${GROUPS.map((group) => `${num(group.accounts)} accounts of ${num(group.receipts)} receipts`).join(' and ')} ` +
      `(${num(RECEIPTS)} receipts): open (spawn to the first authenticated 200), then ${CONNECTIONS} connections of GET /receipts ` +
      `(a page of 25, page and account changing with each request) and of POST /receipts (each to the next account) for ${SECONDS} s each, after a 1 s warm-up. ` +
      "RSS per receipt is the RSS after the open, less an empty sandbox's, over the receipts held.",
  );
  const rows = [];
  const notes = [];
  const failures = [];
  const figures = {};
  let empty;
  let team;
  try {
    if (!sandboxBuilt()) throw Object.assign(new Error('not built'), { skipped: true });

    progress('capacity: an empty sandbox');
    empty = await startSandbox({ dataFile: join(scratchDir, 'capacity-empty.json'), quiet: true, rateLimit: 0 });
    figures.emptyRss = empty.server.rssBytes();
    await empty.server.stop(STOP_GRACE_MS);
    empty = undefined;

    const { dataFile, tokens, seeding } = await seededTeam({ scratchDir, reseed });
    notes.push(seeding);
    progress(`capacity: opening ${num(RECEIPTS)} receipts in ${num(ACCOUNTS)} accounts`);
    team = await startSandbox({ dataFile, token: tokens[0], quiet: true, rateLimit: 0, timeoutMs: 300_000 });
    const { server, api } = team;
    figures.openMs = team.readyMs;
    figures.openPeak = server.peakRssBytes();
    figures.openRss = server.rssBytes();
    const openCpuMs = server.cpuMs();
    await checkCounts(api, tokens);
    rows.push([
      'open the data file',
      num(team.readyMs),
      '',
      '',
      '',
      mb(figures.openPeak),
      `spawn to the first authenticated 200, ${num(openCpuMs)} ms of CPU`,
    ]);

    // Request n goes to account n * 7 mod ACCOUNTS (7 is prime to 1,100: every account in turn,
    // neighbours apart), a page within that account's first 40.
    const account = (n) => (n * 7) % ACCOUNTS;
    progress(`capacity: GET /receipts over ${num(ACCOUNTS)} accounts for ${SECONDS} s`);
    const getLoad = {
      url: `${api}/receipts`,
      connections: CONNECTIONS,
      makeRequest: (n) => ({
        path: `/rest/v1/receipts?page=${1 + (Math.floor(n / ACCOUNTS) % 40)}`,
        headers: authorization(tokens[account(n)]),
      }),
    };
    await runLoad({ ...getLoad, seconds: 1 });
    const gets = await runLoad({ ...getLoad, seconds: SECONDS });
    const getProblems = loadProblems(gets);
    if (getProblems) failures.push(`capacity, GET /receipts: ${getProblems}`);
    figures.getP99 = getProblems ? NaN : gets.p99;
    rows.push(loadRow('GET /receipts', gets, server, getProblems || 'a page of 25, over every account'));

    progress(`capacity: POST /receipts over ${num(ACCOUNTS)} accounts for ${SECONDS} s`);
    const posts = await runLoad({
      url: `${api}/receipts`,
      method: 'POST',
      connections: CONNECTIONS,
      seconds: SECONDS,
      timeoutSeconds: 60,
      makeRequest: (n) => ({ headers: authorization(tokens[account(n)]), body: numberedReceiptBody(100_000 + n) }),
    });
    const postProblems = loadProblems(posts);
    if (postProblems) failures.push(`capacity, POST /receipts: ${postProblems}`);
    figures.postP99 = postProblems ? NaN : posts.p99;
    rows.push(
      loadRow('POST /receipts', posts, server, postProblems || 'durable before the answer, over every account'),
    );
    figures.peakRss = server.peakRssBytes();

    figures.perReceipt = (figures.openRss - figures.emptyRss) / RECEIPTS;
    figures.perGb = GB / (figures.peakRss / RECEIPTS);
    rows.push([
      'RSS per receipt (bytes)',
      num(figures.perReceipt),
      '',
      '',
      '',
      '',
      `after the open ${mb(figures.openRss)} MB, an empty sandbox ${mb(figures.emptyRss)} MB`,
    ]);
    rows.push([
      'receipts per GB of peak RSS',
      num(figures.perGb),
      '',
      '',
      '',
      mb(figures.peakRss),
      'receipts held over the peak RSS of the whole run, in GB',
    ]);
  } catch (error) {
    if (!error.skipped) failures.push(`capacity: ${error.stack ?? error}`);
    notes.push(
      error.skipped ? `the sandbox was not measured: ${error.message}.` : `FAILED: ${error.message.split('\n')[0]}`,
    );
  } finally {
    await empty?.server.stop(STOP_GRACE_MS);
    // The journal of the POSTs is left unfolded: the scratch copy is thrown away.
    await team?.server.stop(STOP_GRACE_MS);
  }

  printTable(['step', 'ms, req/s or bytes', 'p50 ms', 'p99 ms', 'answered', 'peak RSS MB', 'note'], rows);
  for (const note of notes) printNote(note);
  printNote('one sandbox holds about the "receipts per GB" figure for each GB of memory it is given.');

  const show = (unit) => (value) => `${num(value)} ${unit}`;
  printTargets([
    target('GET /receipts p99 < 10 ms', figures.getP99 ?? NaN, '<', 10, { show: show('ms') }),
    target('POST /receipts p99 < 50 ms', figures.postP99 ?? NaN, '<', 50, { show: show('ms') }),
  ]);
  return { failures };
}

function loadRow(label, load, server, note) {
  return [label, num(load.rps), num(load.p50), num(load.p99), num(load.ok), mb(server.peakRssBytes()), note];
}

/**
 * A scratch copy of the team's data file, from bench/.cache/ when the build is the one that
 * seeded it; resolves with `{ dataFile, tokens, seeding }`, `tokens` in the accounts' order.
 */
async function seededTeam({ scratchDir, reseed }) {
  const key = await buildKey('capacity');
  const cacheData = join(CACHE_DIR, 'capacity.json');
  const cacheMeta = join(CACHE_DIR, 'capacity.meta.json');
  const dataFile = join(scratchDir, 'capacity.json');
  const meta = reseed ? null : await readFile(cacheMeta, 'utf8').then(JSON.parse, () => null);
  if (meta?.key === key) {
    await copyFile(cacheData, dataFile);
    return {
      dataFile,
      tokens: meta.tokens,
      seeding: 'the team data file was copied from bench/.cache/ (--reseed seeds again).',
    };
  }
  const begun = performance.now();
  await rm(dataFile, { force: true });
  const sandbox = await startSandbox({ dataFile, quiet: true, rateLimit: 0 });
  const tokens = [sandbox.token];
  const templates = [];
  try {
    progress(`capacity: making ${num(ACCOUNTS)} accounts, one receipt each, through the API`);
    while (tokens.length < ACCOUNTS) {
      const batch = Math.min(SEED_CONCURRENCY, ACCOUNTS - tokens.length);
      tokens.push(...(await Promise.all(Array.from({ length: batch }, () => createAccount(sandbox.origin)))));
    }
    for (let at = 0; at < ACCOUNTS; at += SEED_CONCURRENCY) {
      const made = await Promise.all(
        tokens
          .slice(at, at + SEED_CONCURRENCY)
          .map((token) =>
            requestJson(
              `${sandbox.api}/receipts`,
              { method: 'POST', headers: authorization(token), body: numberedReceiptBody(1) },
              201,
            ),
          ),
      );
      templates.push(...made.map(({ data }) => data.id));
    }
  } finally {
    await sandbox.server.stop(30_000);
  }
  const counts = GROUPS.flatMap((group) => Array.from({ length: group.accounts }, () => group.receipts));
  progress(`capacity: copying each account's receipt in the data file up to ${num(RECEIPTS)} receipts`);
  await extendAccounts(
    dataFile,
    templates.map((templateId, at) => ({ templateId, count: counts[at] })),
  );
  await mkdir(CACHE_DIR, { recursive: true });
  await copyFile(dataFile, cacheData);
  await writeFile(cacheMeta, JSON.stringify({ key, tokens }));
  const seconds = ((performance.now() - begun) / 1000).toFixed(1);
  return {
    dataFile,
    tokens,
    seeding: `the team data file was seeded in ${seconds} s: ${num(ACCOUNTS)} accounts, each with one receipt made through the API, copied in the file.`,
  };
}

/** Checks that the first and last account of each group hold their receipts. */
async function checkCounts(api, tokens) {
  let first = 0;
  for (const group of GROUPS) {
    for (const at of [first, first + group.accounts - 1]) {
      const total = await receiptCount(api, tokens[at]);
      if (total !== group.receipts)
        throw new Error(`account ${at + 1} of the team holds ${total} receipts, not ${group.receipts}`);
    }
    first += group.accounts;
  }
}
