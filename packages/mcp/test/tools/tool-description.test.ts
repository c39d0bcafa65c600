import { describe, expect, it } from 'vitest';
import { type ContractOperation, loadContract } from '../../src/contract/contract';
import { DESCRIPTION_BUDGET, describeOperation, shorten } from '../../src/tools/tool-description';

const contract = loadContract();

function operation(operationId: string): ContractOperation {
  const found = contract.operations.find((candidate) => candidate.operationId === operationId);
  if (found === undefined) throw new Error(`no operation ${operationId}`);
  return found;
}

describe('describeOperation(operation)', () => {
  it("keeps the contract's words without its provenance marker, and closes with the call", () => {
    const text = describeOperation(operation('createReceipt'));
    expect(text).toBe(
      'Records an acquisition. Permission: write. Fires `receipt.created`.\n\n' +
        'The new receipt is `on_hand`, gets the next record number of its book and an audit entry with action `created`, ' +
        "and is visible to `GET /receipts/{id}`, the lists and search as soon as this answer is sent (the SDK's recovery without duplicates relies on it).\n\n" +
        'Calls POST /rest/v1/receipts.',
    );
  });

  it('says that a control call is the sandbox only', () => {
    expect(describeOperation(operation('getClock'))).toBe(
      "The account's current time and how far it has been advanced.\n\nCalls GET /_sandbox/clock (the sandbox only).",
    );
  });

  it('cuts a long description within the budget after a sentence, and says where the rest is', () => {
    const text = describeOperation(operation('putWebhookChaos'));
    const [kept] = text.split('\n\nCalls ');
    expect(kept!.length).toBeLessThanOrEqual(DESCRIPTION_BUDGET);
    expect(kept).toMatch(/\.$/);
    expect(text).toMatch(/The whole text: operation putWebhookChaos in fflkit:\/\/contract\/sandbox\.yaml\.$/);
  });

  it('points a reference to a section of the document to the resource that holds it', () => {
    expect(describeOperation(operation('listRequests'))).toContain(
      '(see "The request log" in fflkit://contract/sandbox.yaml)',
    );
  });

  it('leaves no provenance marker in any tool description', () => {
    for (const each of contract.operations) expect(describeOperation(each)).not.toMatch(/Not\s+shown\s+in\s+the/);
  });
});

describe('shorten(text, budget)', () => {
  it('keeps whole paragraphs while they fit, but one that introduces what is left out', () => {
    expect(shorten('One.\n\nTwo.\n\nThree is long.', 12)).toEqual({ kept: 'One.\n\nTwo.', cut: true });
    expect(shorten('One.\n\nAs follows:\n\n- a long list item', 20)).toEqual({ kept: 'One.', cut: true });
    expect(shorten('One.\n\nTwo.', 100)).toEqual({ kept: 'One.\n\nTwo.', cut: false });
  });

  it('cuts a first paragraph after its last sentence, never inside a code span or a number', () => {
    expect(shorten('A rate of 3.5 applies. Then `a. b` holds. And more text follows here.', 45)).toEqual({
      kept: 'A rate of 3.5 applies. Then `a. b` holds.',
      cut: true,
    });
  });
});
