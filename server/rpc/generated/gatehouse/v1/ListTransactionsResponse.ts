// Original file: gatehouse/v1/points.proto

import type { Transaction as _gatehouse_v1_Transaction, Transaction__Output as _gatehouse_v1_Transaction__Output } from '../../gatehouse/v1/Transaction.ts';

export interface ListTransactionsResponse {
  'transactions'?: (_gatehouse_v1_Transaction)[];
  'nextPageToken'?: (string);
}

export interface ListTransactionsResponse__Output {
  'transactions': (_gatehouse_v1_Transaction__Output)[];
  'nextPageToken': (string);
}
