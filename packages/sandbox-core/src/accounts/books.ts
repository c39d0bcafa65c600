import type { Book } from '@fflkit/types';
import Joi from 'joi';
import type { AccountOperation } from '../state/operation';
import type { AccountState, BookState, CoreStore } from '../state/store';
import { inputShape, readInput, trimmedString } from '../support/input';
import { formatTimestamp } from '../support/time';

// An account's books: the logbooks its receipts are numbered in. The service makes them in its
// dashboard; the sandbox through its control API, and every account starts with `Main`.

/** Adds an empty book to the account. */
export function addBook(store: CoreStore, account: AccountState, name: string, nowMs: number): BookState {
  store.put(account, 'books', {
    id: store.nextId('book'),
    account_id: account.record.id,
    name,
    created_at: formatTimestamp(nowMs),
    last_record: 0,
  });
  return account.books.get(name)!;
}

/** The contract's `Book`: the record with counts from the book's index. */
function renderBook(book: BookState): Book {
  const recordCount = book.index.all.length;
  const onHandCount = book.index.onHand.length;
  return {
    id: book.record.id,
    name: book.record.name,
    record_count: recordCount,
    on_hand_count: onHandCount,
    disposed_count: recordCount - onHandCount,
    created_at: book.record.created_at,
  };
}

/** `GET /books`: every book of the account, in id order, unpaginated. */
export const listBooks: AccountOperation = ({ account }) => ({
  status: 200,
  body: { data: Array.from(account.books.values(), renderBook) },
});

const BOOK_INPUT = inputShape<{ name: string }>(['name'], () => Joi.object({ name: trimmedString(100).required() }));

/** `POST /_sandbox/books`: adds a book; its name must be new to the account. */
export const createBook: AccountOperation = ({ store, request, account, nowMs }) => {
  const { name } = readInput(BOOK_INPUT, request.body, (value, errors) => {
    if (value.name !== undefined && account.books.has(value.name))
      errors.add('name', 'The name has already been taken.');
  });
  return { status: 201, body: { data: renderBook(addBook(store, account, name, nowMs)) } };
};
