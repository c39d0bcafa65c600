import { receiptBody } from '../support/receipt-body';

/** A receipt the sandbox acknowledged with 201. */
export interface AcknowledgedReceipt {
  id: number;
  serial_number: string;
}

/** What {@link writeUntilKilled} writes with, and whom it tells of each acknowledgement. */
export interface WriteLoad {
  apiUrl: string;
  token: string;
  workers: number;
  /** The number of the next receipt to post (its serial number is made from it). */
  nextNumber: () => number;
  onAcknowledged: (receipt: AcknowledgedReceipt) => void;
  /**
   * Hears of every answer a fault rule of the account failed (`X-Sandbox-Fault`): the serial
   * number posted, and whether the rule acted after the receipt was recorded.
   */
  onFaulted?: (serialNumber: string, afterActing: boolean) => void;
}

/**
 * Posts receipts from `workers` concurrent loops until the sandbox stops answering (it was
 * killed), telling `onAcknowledged` of every 201, and `onFaulted` of every answer a fault rule
 * made. Any other status fails the test.
 */
export async function writeUntilKilled(load: WriteLoad): Promise<void> {
  const worker = async (): Promise<void> => {
    for (;;) {
      const body = receiptBody(load.nextNumber());
      let response: Response;
      try {
        response = await fetch(`${load.apiUrl}/receipts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${load.token}`, 'content-type': 'application/json' },
          body,
        });
      } catch {
        return;
      }
      if (response.headers.has('x-sandbox-fault') && response.status >= 500) {
        const { message } = (await response.json()) as { message: string };
        load.onFaulted?.((JSON.parse(body) as AcknowledgedReceipt).serial_number, message.includes(' after acting'));
        continue;
      }
      if (response.status !== 201) throw new Error(`POST answered ${response.status}`);
      const { data } = (await response.json()) as { data: AcknowledgedReceipt };
      load.onAcknowledged(data);
    }
  };
  await Promise.all(Array.from({ length: load.workers }, worker));
}
