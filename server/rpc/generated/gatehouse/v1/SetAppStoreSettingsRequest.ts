// Original file: gatehouse/v1/billing.proto

import type { Long } from '@grpc/proto-loader';

export interface SetAppStoreSettingsRequest {
  'realmId'?: (string);
  'bundleId'?: (string);
  'appAppleId'?: (number | string | Long);
  'environments'?: (string)[];
  '_bundleId'?: "bundleId";
  '_appAppleId'?: "appAppleId";
}

export interface SetAppStoreSettingsRequest__Output {
  'realmId': (string);
  'bundleId'?: (string);
  'appAppleId'?: (number);
  'environments': (string)[];
}
