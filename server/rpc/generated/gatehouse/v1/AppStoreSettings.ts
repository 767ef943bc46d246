// Original file: gatehouse/v1/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface AppStoreSettings {
  'bundleId'?: (string);
  'appAppleId'?: (number | string | Long);
  'environments'?: (string)[];
}

export interface AppStoreSettings__Output {
  'bundleId': (string);
  'appAppleId': (number);
  'environments': (string)[];
}
