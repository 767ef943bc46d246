// Original file: gatehouse/v1/billing.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AppStoreNotificationRequest as _gatehouse_v1_AppStoreNotificationRequest, AppStoreNotificationRequest__Output as _gatehouse_v1_AppStoreNotificationRequest__Output } from '../../gatehouse/v1/AppStoreNotificationRequest.ts';
import type { BatchUpdateEntitlementMappingsRequest as _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, BatchUpdateEntitlementMappingsRequest__Output as _gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output } from '../../gatehouse/v1/BatchUpdateEntitlementMappingsRequest.ts';
import type { BatchUpdateEntitlementMappingsResponse as _gatehouse_v1_BatchUpdateEntitlementMappingsResponse, BatchUpdateEntitlementMappingsResponse__Output as _gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output } from '../../gatehouse/v1/BatchUpdateEntitlementMappingsResponse.ts';
import type { BillingNotification as _gatehouse_v1_BillingNotification, BillingNotification__Output as _gatehouse_v1_BillingNotification__Output } from '../../gatehouse/v1/BillingNotification.ts';
import type { CancelSubscriptionRequest as _gatehouse_v1_CancelSubscriptionRequest, CancelSubscriptionRequest__Output as _gatehouse_v1_CancelSubscriptionRequest__Output } from '../../gatehouse/v1/CancelSubscriptionRequest.ts';
import type { CreateSubscriptionRequest as _gatehouse_v1_CreateSubscriptionRequest, CreateSubscriptionRequest__Output as _gatehouse_v1_CreateSubscriptionRequest__Output } from '../../gatehouse/v1/CreateSubscriptionRequest.ts';
import type { GetPaymentProviderSettingsRequest as _gatehouse_v1_GetPaymentProviderSettingsRequest, GetPaymentProviderSettingsRequest__Output as _gatehouse_v1_GetPaymentProviderSettingsRequest__Output } from '../../gatehouse/v1/GetPaymentProviderSettingsRequest.ts';
import type { ListBillingNotificationsRequest as _gatehouse_v1_ListBillingNotificationsRequest, ListBillingNotificationsRequest__Output as _gatehouse_v1_ListBillingNotificationsRequest__Output } from '../../gatehouse/v1/ListBillingNotificationsRequest.ts';
import type { ListBillingNotificationsResponse as _gatehouse_v1_ListBillingNotificationsResponse, ListBillingNotificationsResponse__Output as _gatehouse_v1_ListBillingNotificationsResponse__Output } from '../../gatehouse/v1/ListBillingNotificationsResponse.ts';
import type { ListEntitlementMappingsRequest as _gatehouse_v1_ListEntitlementMappingsRequest, ListEntitlementMappingsRequest__Output as _gatehouse_v1_ListEntitlementMappingsRequest__Output } from '../../gatehouse/v1/ListEntitlementMappingsRequest.ts';
import type { ListEntitlementMappingsResponse as _gatehouse_v1_ListEntitlementMappingsResponse, ListEntitlementMappingsResponse__Output as _gatehouse_v1_ListEntitlementMappingsResponse__Output } from '../../gatehouse/v1/ListEntitlementMappingsResponse.ts';
import type { NotificationReceipt as _gatehouse_v1_NotificationReceipt, NotificationReceipt__Output as _gatehouse_v1_NotificationReceipt__Output } from '../../gatehouse/v1/NotificationReceipt.ts';
import type { PaymentProviderSettings as _gatehouse_v1_PaymentProviderSettings, PaymentProviderSettings__Output as _gatehouse_v1_PaymentProviderSettings__Output } from '../../gatehouse/v1/PaymentProviderSettings.ts';
import type { ReplayBillingNotificationRequest as _gatehouse_v1_ReplayBillingNotificationRequest, ReplayBillingNotificationRequest__Output as _gatehouse_v1_ReplayBillingNotificationRequest__Output } from '../../gatehouse/v1/ReplayBillingNotificationRequest.ts';
import type { SetAppStoreSettingsRequest as _gatehouse_v1_SetAppStoreSettingsRequest, SetAppStoreSettingsRequest__Output as _gatehouse_v1_SetAppStoreSettingsRequest__Output } from '../../gatehouse/v1/SetAppStoreSettingsRequest.ts';
import type { SetStripeSettingsRequest as _gatehouse_v1_SetStripeSettingsRequest, SetStripeSettingsRequest__Output as _gatehouse_v1_SetStripeSettingsRequest__Output } from '../../gatehouse/v1/SetStripeSettingsRequest.ts';
import type { StripeEventRequest as _gatehouse_v1_StripeEventRequest, StripeEventRequest__Output as _gatehouse_v1_StripeEventRequest__Output } from '../../gatehouse/v1/StripeEventRequest.ts';
import type { Subscription as _gatehouse_v1_Subscription, Subscription__Output as _gatehouse_v1_Subscription__Output } from '../../gatehouse/v1/Subscription.ts';

export interface BillingServiceClient extends grpc.Client {
  BatchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  BatchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  BatchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  BatchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  batchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  batchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  batchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  batchUpdateEntitlementMappings(argument: _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, callback: grpc.requestCallback<_gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  
  CancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  CancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  CancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  CancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  cancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  cancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  cancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  cancelSubscription(argument: _gatehouse_v1_CancelSubscriptionRequest, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  
  CreateSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  CreateSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  CreateSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  CreateSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  createSubscription(argument: _gatehouse_v1_CreateSubscriptionRequest, callback: grpc.requestCallback<_gatehouse_v1_Subscription__Output>): grpc.ClientUnaryCall;
  
  GetPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  GetPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  GetPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  GetPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  getPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  getPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  getPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  getPaymentProviderSettings(argument: _gatehouse_v1_GetPaymentProviderSettingsRequest, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  
  ListBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  ListBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  ListBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  ListBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  listBillingNotifications(argument: _gatehouse_v1_ListBillingNotificationsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListBillingNotificationsResponse__Output>): grpc.ClientUnaryCall;
  
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  
  ReceiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  ReceiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  ReceiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  ReceiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveAppStoreNotification(argument: _gatehouse_v1_AppStoreNotificationRequest, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  
  ReceiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  ReceiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  ReceiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  ReceiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  receiveStripeEvent(argument: _gatehouse_v1_StripeEventRequest, callback: grpc.requestCallback<_gatehouse_v1_NotificationReceipt__Output>): grpc.ClientUnaryCall;
  
  ReplayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  ReplayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  ReplayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  ReplayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  replayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  replayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  replayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  replayBillingNotification(argument: _gatehouse_v1_ReplayBillingNotificationRequest, callback: grpc.requestCallback<_gatehouse_v1_BillingNotification__Output>): grpc.ClientUnaryCall;
  
  SetAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  SetAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  SetAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  SetAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setAppStoreSettings(argument: _gatehouse_v1_SetAppStoreSettingsRequest, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  
  SetStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  SetStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  SetStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  SetStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  setStripeSettings(argument: _gatehouse_v1_SetStripeSettingsRequest, callback: grpc.requestCallback<_gatehouse_v1_PaymentProviderSettings__Output>): grpc.ClientUnaryCall;
  
}

export interface BillingServiceHandlers extends grpc.UntypedServiceImplementation {
  BatchUpdateEntitlementMappings: grpc.handleUnaryCall<_gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse>;
  
  CancelSubscription: grpc.handleUnaryCall<_gatehouse_v1_CancelSubscriptionRequest__Output, _gatehouse_v1_Subscription>;
  
  CreateSubscription: grpc.handleUnaryCall<_gatehouse_v1_CreateSubscriptionRequest__Output, _gatehouse_v1_Subscription>;
  
  GetPaymentProviderSettings: grpc.handleUnaryCall<_gatehouse_v1_GetPaymentProviderSettingsRequest__Output, _gatehouse_v1_PaymentProviderSettings>;
  
  ListBillingNotifications: grpc.handleUnaryCall<_gatehouse_v1_ListBillingNotificationsRequest__Output, _gatehouse_v1_ListBillingNotificationsResponse>;
  
  ListEntitlementMappings: grpc.handleUnaryCall<_gatehouse_v1_ListEntitlementMappingsRequest__Output, _gatehouse_v1_ListEntitlementMappingsResponse>;
  
  ReceiveAppStoreNotification: grpc.handleUnaryCall<_gatehouse_v1_AppStoreNotificationRequest__Output, _gatehouse_v1_NotificationReceipt>;
  
  ReceiveStripeEvent: grpc.handleUnaryCall<_gatehouse_v1_StripeEventRequest__Output, _gatehouse_v1_NotificationReceipt>;
  
  ReplayBillingNotification: grpc.handleUnaryCall<_gatehouse_v1_ReplayBillingNotificationRequest__Output, _gatehouse_v1_BillingNotification>;
  
  SetAppStoreSettings: grpc.handleUnaryCall<_gatehouse_v1_SetAppStoreSettingsRequest__Output, _gatehouse_v1_PaymentProviderSettings>;
  
  SetStripeSettings: grpc.handleUnaryCall<_gatehouse_v1_SetStripeSettingsRequest__Output, _gatehouse_v1_PaymentProviderSettings>;
  
}

export interface BillingServiceDefinition extends grpc.ServiceDefinition {
  BatchUpdateEntitlementMappings: MethodDefinition<_gatehouse_v1_BatchUpdateEntitlementMappingsRequest, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse, _gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>
  CancelSubscription: MethodDefinition<_gatehouse_v1_CancelSubscriptionRequest, _gatehouse_v1_Subscription, _gatehouse_v1_CancelSubscriptionRequest__Output, _gatehouse_v1_Subscription__Output>
  CreateSubscription: MethodDefinition<_gatehouse_v1_CreateSubscriptionRequest, _gatehouse_v1_Subscription, _gatehouse_v1_CreateSubscriptionRequest__Output, _gatehouse_v1_Subscription__Output>
  GetPaymentProviderSettings: MethodDefinition<_gatehouse_v1_GetPaymentProviderSettingsRequest, _gatehouse_v1_PaymentProviderSettings, _gatehouse_v1_GetPaymentProviderSettingsRequest__Output, _gatehouse_v1_PaymentProviderSettings__Output>
  ListBillingNotifications: MethodDefinition<_gatehouse_v1_ListBillingNotificationsRequest, _gatehouse_v1_ListBillingNotificationsResponse, _gatehouse_v1_ListBillingNotificationsRequest__Output, _gatehouse_v1_ListBillingNotificationsResponse__Output>
  ListEntitlementMappings: MethodDefinition<_gatehouse_v1_ListEntitlementMappingsRequest, _gatehouse_v1_ListEntitlementMappingsResponse, _gatehouse_v1_ListEntitlementMappingsRequest__Output, _gatehouse_v1_ListEntitlementMappingsResponse__Output>
  ReceiveAppStoreNotification: MethodDefinition<_gatehouse_v1_AppStoreNotificationRequest, _gatehouse_v1_NotificationReceipt, _gatehouse_v1_AppStoreNotificationRequest__Output, _gatehouse_v1_NotificationReceipt__Output>
  ReceiveStripeEvent: MethodDefinition<_gatehouse_v1_StripeEventRequest, _gatehouse_v1_NotificationReceipt, _gatehouse_v1_StripeEventRequest__Output, _gatehouse_v1_NotificationReceipt__Output>
  ReplayBillingNotification: MethodDefinition<_gatehouse_v1_ReplayBillingNotificationRequest, _gatehouse_v1_BillingNotification, _gatehouse_v1_ReplayBillingNotificationRequest__Output, _gatehouse_v1_BillingNotification__Output>
  SetAppStoreSettings: MethodDefinition<_gatehouse_v1_SetAppStoreSettingsRequest, _gatehouse_v1_PaymentProviderSettings, _gatehouse_v1_SetAppStoreSettingsRequest__Output, _gatehouse_v1_PaymentProviderSettings__Output>
  SetStripeSettings: MethodDefinition<_gatehouse_v1_SetStripeSettingsRequest, _gatehouse_v1_PaymentProviderSettings, _gatehouse_v1_SetStripeSettingsRequest__Output, _gatehouse_v1_PaymentProviderSettings__Output>
}
