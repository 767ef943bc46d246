// Original file: gatehouse/v1/billing.proto

import type { BillingNotification as _gatehouse_v1_BillingNotification, BillingNotification__Output as _gatehouse_v1_BillingNotification__Output } from '../../gatehouse/v1/BillingNotification.ts';

export interface ListBillingNotificationsResponse {
  'notifications'?: (_gatehouse_v1_BillingNotification)[];
  'nextPageToken'?: (string);
}

export interface ListBillingNotificationsResponse__Output {
  'notifications': (_gatehouse_v1_BillingNotification__Output)[];
  'nextPageToken': (string);
}
