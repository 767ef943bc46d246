// Original file: gatehouse/v1/billing.proto

import type { AppStoreSettings as _gatehouse_v1_AppStoreSettings, AppStoreSettings__Output as _gatehouse_v1_AppStoreSettings__Output } from '../../gatehouse/v1/AppStoreSettings.ts';
import type { StripeSettings as _gatehouse_v1_StripeSettings, StripeSettings__Output as _gatehouse_v1_StripeSettings__Output } from '../../gatehouse/v1/StripeSettings.ts';

export interface PaymentProviderSettings {
  'realmId'?: (string);
  'appStore'?: (_gatehouse_v1_AppStoreSettings | null);
  'stripe'?: (_gatehouse_v1_StripeSettings | null);
}

export interface PaymentProviderSettings__Output {
  'realmId': (string);
  'appStore': (_gatehouse_v1_AppStoreSettings__Output | null);
  'stripe': (_gatehouse_v1_StripeSettings__Output | null);
}
