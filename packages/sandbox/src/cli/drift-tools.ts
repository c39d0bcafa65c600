// What the drift guard's subcommands (choices, proxy, conformance) load when they run, and only
// then: the contract with its validators, the proxy and the probes. In the CLI's bundle they are
// a file of their own (cli-drift.cjs, see tsup.cli.config.ts), so that starting the sandbox
// neither reads nor compiles them.

export { CONTRACT_CHOICES } from '../contract-check/choices';
export { formatConformanceReport } from '../conformance/conformance-report';
export { runConformance } from '../conformance/run-conformance';
export { DriftProxyError } from '../drift-proxy/proxy-options';
export { startDriftProxy } from '../start-drift-proxy';
