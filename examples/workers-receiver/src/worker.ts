// The Worker's main module, as wrangler.json names it. workerd refuses a main module that exports
// anything but handlers, so the receiver and its types live in receiver-worker.ts.
import { createReceiverWorker } from './receiver-worker';

export default createReceiverWorker();
