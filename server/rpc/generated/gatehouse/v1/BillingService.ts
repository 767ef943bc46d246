// Original file: gatehouse/v1/billing.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { BatchUpdateEntitlementMappingsRequest as _gatehouse_v1_BatchUpdateEntitlementMappingsRequest, BatchUpdateEntitlementMappingsRequest__Output as _gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output } from '../../gatehouse/v1/BatchUpdateEntitlementMappingsRequest.ts';
import type { BatchUpdateEntitlementMappingsResponse as _gatehouse_v1_BatchUpdateEntitlementMappingsResponse, BatchUpdateEntitlementMappingsResponse__Output as _gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output } from '../../gatehouse/v1/BatchUpdateEntitlementMappingsResponse.ts';
import type { CancelSubscriptionRequest as _gatehouse_v1_CancelSubscriptionRequest, CancelSubscriptionRequest__Output as _gatehouse_v1_CancelSubscriptionRequest__Output } from '../../gatehouse/v1/CancelSubscriptionRequest.ts';
import type { CreateSubscriptionRequest as _gatehouse_v1_CreateSubscriptionRequest, CreateSubscriptionRequest__Output as _gatehouse_v1_CreateSubscriptionRequest__Output } from '../../gatehouse/v1/CreateSubscriptionRequest.ts';
import type { ListEntitlementMappingsRequest as _gatehouse_v1_ListEntitlementMappingsRequest, ListEntitlementMappingsRequest__Output as _gatehouse_v1_ListEntitlementMappingsRequest__Output } from '../../gatehouse/v1/ListEntitlementMappingsRequest.ts';
import type { ListEntitlementMappingsResponse as _gatehouse_v1_ListEntitlementMappingsResponse, ListEntitlementMappingsResponse__Output as _gatehouse_v1_ListEntitlementMappingsResponse__Output } from '../../gatehouse/v1/ListEntitlementMappingsResponse.ts';
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
  
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlementMappings(argument: _gatehouse_v1_ListEntitlementMappingsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListEntitlementMappingsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface BillingServiceHandlers extends grpc.UntypedServiceImplementation {
  BatchUpdateEntitlementMappings: grpc.handleUnaryCall<_gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse>;
  
  CancelSubscription: grpc.handleUnaryCall<_gatehouse_v1_CancelSubscriptionRequest__Output, _gatehouse_v1_Subscription>;
  
  CreateSubscription: grpc.handleUnaryCall<_gatehouse_v1_CreateSubscriptionRequest__Output, _gatehouse_v1_Subscription>;
  
  ListEntitlementMappings: grpc.handleUnaryCall<_gatehouse_v1_ListEntitlementMappingsRequest__Output, _gatehouse_v1_ListEntitlementMappingsResponse>;
  
}

export interface BillingServiceDefinition extends grpc.ServiceDefinition {
  BatchUpdateEntitlementMappings: MethodDefinition<_gatehouse_v1_BatchUpdateEntitlementMappingsRequest, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse, _gatehouse_v1_BatchUpdateEntitlementMappingsRequest__Output, _gatehouse_v1_BatchUpdateEntitlementMappingsResponse__Output>
  CancelSubscription: MethodDefinition<_gatehouse_v1_CancelSubscriptionRequest, _gatehouse_v1_Subscription, _gatehouse_v1_CancelSubscriptionRequest__Output, _gatehouse_v1_Subscription__Output>
  CreateSubscription: MethodDefinition<_gatehouse_v1_CreateSubscriptionRequest, _gatehouse_v1_Subscription, _gatehouse_v1_CreateSubscriptionRequest__Output, _gatehouse_v1_Subscription__Output>
  ListEntitlementMappings: MethodDefinition<_gatehouse_v1_ListEntitlementMappingsRequest, _gatehouse_v1_ListEntitlementMappingsResponse, _gatehouse_v1_ListEntitlementMappingsRequest__Output, _gatehouse_v1_ListEntitlementMappingsResponse__Output>
}
