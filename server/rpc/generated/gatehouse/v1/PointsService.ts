// Original file: gatehouse/v1/points.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConsumeRequest as _gatehouse_v1_ConsumeRequest, ConsumeRequest__Output as _gatehouse_v1_ConsumeRequest__Output } from '../../gatehouse/v1/ConsumeRequest.ts';
import type { ConsumeResponse as _gatehouse_v1_ConsumeResponse, ConsumeResponse__Output as _gatehouse_v1_ConsumeResponse__Output } from '../../gatehouse/v1/ConsumeResponse.ts';
import type { CreateHoldRequest as _gatehouse_v1_CreateHoldRequest, CreateHoldRequest__Output as _gatehouse_v1_CreateHoldRequest__Output } from '../../gatehouse/v1/CreateHoldRequest.ts';
import type { DefaultPointsConfig as _gatehouse_v1_DefaultPointsConfig, DefaultPointsConfig__Output as _gatehouse_v1_DefaultPointsConfig__Output } from '../../gatehouse/v1/DefaultPointsConfig.ts';
import type { GetAlertsRequest as _gatehouse_v1_GetAlertsRequest, GetAlertsRequest__Output as _gatehouse_v1_GetAlertsRequest__Output } from '../../gatehouse/v1/GetAlertsRequest.ts';
import type { GetDefaultConfigRequest as _gatehouse_v1_GetDefaultConfigRequest, GetDefaultConfigRequest__Output as _gatehouse_v1_GetDefaultConfigRequest__Output } from '../../gatehouse/v1/GetDefaultConfigRequest.ts';
import type { GetHoldRequest as _gatehouse_v1_GetHoldRequest, GetHoldRequest__Output as _gatehouse_v1_GetHoldRequest__Output } from '../../gatehouse/v1/GetHoldRequest.ts';
import type { GetMySummaryRequest as _gatehouse_v1_GetMySummaryRequest, GetMySummaryRequest__Output as _gatehouse_v1_GetMySummaryRequest__Output } from '../../gatehouse/v1/GetMySummaryRequest.ts';
import type { GetSummaryRequest as _gatehouse_v1_GetSummaryRequest, GetSummaryRequest__Output as _gatehouse_v1_GetSummaryRequest__Output } from '../../gatehouse/v1/GetSummaryRequest.ts';
import type { GrantRequest as _gatehouse_v1_GrantRequest, GrantRequest__Output as _gatehouse_v1_GrantRequest__Output } from '../../gatehouse/v1/GrantRequest.ts';
import type { GrantResponse as _gatehouse_v1_GrantResponse, GrantResponse__Output as _gatehouse_v1_GrantResponse__Output } from '../../gatehouse/v1/GrantResponse.ts';
import type { Hold as _gatehouse_v1_Hold, Hold__Output as _gatehouse_v1_Hold__Output } from '../../gatehouse/v1/Hold.ts';
import type { ListMyTransactionsRequest as _gatehouse_v1_ListMyTransactionsRequest, ListMyTransactionsRequest__Output as _gatehouse_v1_ListMyTransactionsRequest__Output } from '../../gatehouse/v1/ListMyTransactionsRequest.ts';
import type { ListTransactionsRequest as _gatehouse_v1_ListTransactionsRequest, ListTransactionsRequest__Output as _gatehouse_v1_ListTransactionsRequest__Output } from '../../gatehouse/v1/ListTransactionsRequest.ts';
import type { ListTransactionsResponse as _gatehouse_v1_ListTransactionsResponse, ListTransactionsResponse__Output as _gatehouse_v1_ListTransactionsResponse__Output } from '../../gatehouse/v1/ListTransactionsResponse.ts';
import type { PointsAlerts as _gatehouse_v1_PointsAlerts, PointsAlerts__Output as _gatehouse_v1_PointsAlerts__Output } from '../../gatehouse/v1/PointsAlerts.ts';
import type { PointsSummary as _gatehouse_v1_PointsSummary, PointsSummary__Output as _gatehouse_v1_PointsSummary__Output } from '../../gatehouse/v1/PointsSummary.ts';
import type { PutAlertsRequest as _gatehouse_v1_PutAlertsRequest, PutAlertsRequest__Output as _gatehouse_v1_PutAlertsRequest__Output } from '../../gatehouse/v1/PutAlertsRequest.ts';
import type { PutDefaultConfigRequest as _gatehouse_v1_PutDefaultConfigRequest, PutDefaultConfigRequest__Output as _gatehouse_v1_PutDefaultConfigRequest__Output } from '../../gatehouse/v1/PutDefaultConfigRequest.ts';
import type { RefundTransactionRequest as _gatehouse_v1_RefundTransactionRequest, RefundTransactionRequest__Output as _gatehouse_v1_RefundTransactionRequest__Output } from '../../gatehouse/v1/RefundTransactionRequest.ts';
import type { RefundTransactionResponse as _gatehouse_v1_RefundTransactionResponse, RefundTransactionResponse__Output as _gatehouse_v1_RefundTransactionResponse__Output } from '../../gatehouse/v1/RefundTransactionResponse.ts';
import type { ReleaseHoldRequest as _gatehouse_v1_ReleaseHoldRequest, ReleaseHoldRequest__Output as _gatehouse_v1_ReleaseHoldRequest__Output } from '../../gatehouse/v1/ReleaseHoldRequest.ts';
import type { SettleHoldRequest as _gatehouse_v1_SettleHoldRequest, SettleHoldRequest__Output as _gatehouse_v1_SettleHoldRequest__Output } from '../../gatehouse/v1/SettleHoldRequest.ts';
import type { SettleHoldResponse as _gatehouse_v1_SettleHoldResponse, SettleHoldResponse__Output as _gatehouse_v1_SettleHoldResponse__Output } from '../../gatehouse/v1/SettleHoldResponse.ts';

export interface PointsServiceClient extends grpc.Client {
  Consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  Consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  Consume(argument: _gatehouse_v1_ConsumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  Consume(argument: _gatehouse_v1_ConsumeRequest, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  
  CreateHold(argument: _gatehouse_v1_CreateHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  CreateHold(argument: _gatehouse_v1_CreateHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  CreateHold(argument: _gatehouse_v1_CreateHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  CreateHold(argument: _gatehouse_v1_CreateHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  createHold(argument: _gatehouse_v1_CreateHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  createHold(argument: _gatehouse_v1_CreateHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  createHold(argument: _gatehouse_v1_CreateHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  createHold(argument: _gatehouse_v1_CreateHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  
  GetAlerts(argument: _gatehouse_v1_GetAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  GetAlerts(argument: _gatehouse_v1_GetAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  GetAlerts(argument: _gatehouse_v1_GetAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  GetAlerts(argument: _gatehouse_v1_GetAlertsRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  getAlerts(argument: _gatehouse_v1_GetAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  getAlerts(argument: _gatehouse_v1_GetAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  getAlerts(argument: _gatehouse_v1_GetAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  getAlerts(argument: _gatehouse_v1_GetAlertsRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  
  GetHold(argument: _gatehouse_v1_GetHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  GetHold(argument: _gatehouse_v1_GetHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  GetHold(argument: _gatehouse_v1_GetHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  GetHold(argument: _gatehouse_v1_GetHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  getHold(argument: _gatehouse_v1_GetHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  getHold(argument: _gatehouse_v1_GetHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  getHold(argument: _gatehouse_v1_GetHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  getHold(argument: _gatehouse_v1_GetHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  
  GetMySummary(argument: _gatehouse_v1_GetMySummaryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  GetMySummary(argument: _gatehouse_v1_GetMySummaryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  GetMySummary(argument: _gatehouse_v1_GetMySummaryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  GetMySummary(argument: _gatehouse_v1_GetMySummaryRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getMySummary(argument: _gatehouse_v1_GetMySummaryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getMySummary(argument: _gatehouse_v1_GetMySummaryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getMySummary(argument: _gatehouse_v1_GetMySummaryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getMySummary(argument: _gatehouse_v1_GetMySummaryRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  
  GetSummary(argument: _gatehouse_v1_GetSummaryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  GetSummary(argument: _gatehouse_v1_GetSummaryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  GetSummary(argument: _gatehouse_v1_GetSummaryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  GetSummary(argument: _gatehouse_v1_GetSummaryRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getSummary(argument: _gatehouse_v1_GetSummaryRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getSummary(argument: _gatehouse_v1_GetSummaryRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getSummary(argument: _gatehouse_v1_GetSummaryRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  getSummary(argument: _gatehouse_v1_GetSummaryRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsSummary__Output>): grpc.ClientUnaryCall;
  
  Grant(argument: _gatehouse_v1_GrantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  Grant(argument: _gatehouse_v1_GrantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  Grant(argument: _gatehouse_v1_GrantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  Grant(argument: _gatehouse_v1_GrantRequest, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  grant(argument: _gatehouse_v1_GrantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  grant(argument: _gatehouse_v1_GrantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  grant(argument: _gatehouse_v1_GrantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  grant(argument: _gatehouse_v1_GrantRequest, callback: grpc.requestCallback<_gatehouse_v1_GrantResponse__Output>): grpc.ClientUnaryCall;
  
  ListMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  ListMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  ListMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  ListMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listMyTransactions(argument: _gatehouse_v1_ListMyTransactionsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  
  ListTransactions(argument: _gatehouse_v1_ListTransactionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  ListTransactions(argument: _gatehouse_v1_ListTransactionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  ListTransactions(argument: _gatehouse_v1_ListTransactionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  ListTransactions(argument: _gatehouse_v1_ListTransactionsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listTransactions(argument: _gatehouse_v1_ListTransactionsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listTransactions(argument: _gatehouse_v1_ListTransactionsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listTransactions(argument: _gatehouse_v1_ListTransactionsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  listTransactions(argument: _gatehouse_v1_ListTransactionsRequest, callback: grpc.requestCallback<_gatehouse_v1_ListTransactionsResponse__Output>): grpc.ClientUnaryCall;
  
  PutAlerts(argument: _gatehouse_v1_PutAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  PutAlerts(argument: _gatehouse_v1_PutAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  PutAlerts(argument: _gatehouse_v1_PutAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  PutAlerts(argument: _gatehouse_v1_PutAlertsRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  putAlerts(argument: _gatehouse_v1_PutAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  putAlerts(argument: _gatehouse_v1_PutAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  putAlerts(argument: _gatehouse_v1_PutAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  putAlerts(argument: _gatehouse_v1_PutAlertsRequest, callback: grpc.requestCallback<_gatehouse_v1_PointsAlerts__Output>): grpc.ClientUnaryCall;
  
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  
  RefundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  RefundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  RefundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  RefundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  refundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  refundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  refundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  refundTransaction(argument: _gatehouse_v1_RefundTransactionRequest, callback: grpc.requestCallback<_gatehouse_v1_RefundTransactionResponse__Output>): grpc.ClientUnaryCall;
  
  ReleaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  ReleaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  ReleaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  ReleaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  releaseHold(argument: _gatehouse_v1_ReleaseHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_Hold__Output>): grpc.ClientUnaryCall;
  
  SettleHold(argument: _gatehouse_v1_SettleHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  SettleHold(argument: _gatehouse_v1_SettleHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  SettleHold(argument: _gatehouse_v1_SettleHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  SettleHold(argument: _gatehouse_v1_SettleHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  settleHold(argument: _gatehouse_v1_SettleHoldRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  settleHold(argument: _gatehouse_v1_SettleHoldRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  settleHold(argument: _gatehouse_v1_SettleHoldRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  settleHold(argument: _gatehouse_v1_SettleHoldRequest, callback: grpc.requestCallback<_gatehouse_v1_SettleHoldResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PointsServiceHandlers extends grpc.UntypedServiceImplementation {
  Consume: grpc.handleUnaryCall<_gatehouse_v1_ConsumeRequest__Output, _gatehouse_v1_ConsumeResponse>;
  
  CreateHold: grpc.handleUnaryCall<_gatehouse_v1_CreateHoldRequest__Output, _gatehouse_v1_Hold>;
  
  GetAlerts: grpc.handleUnaryCall<_gatehouse_v1_GetAlertsRequest__Output, _gatehouse_v1_PointsAlerts>;
  
  GetDefaultConfig: grpc.handleUnaryCall<_gatehouse_v1_GetDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig>;
  
  GetHold: grpc.handleUnaryCall<_gatehouse_v1_GetHoldRequest__Output, _gatehouse_v1_Hold>;
  
  GetMySummary: grpc.handleUnaryCall<_gatehouse_v1_GetMySummaryRequest__Output, _gatehouse_v1_PointsSummary>;
  
  GetSummary: grpc.handleUnaryCall<_gatehouse_v1_GetSummaryRequest__Output, _gatehouse_v1_PointsSummary>;
  
  Grant: grpc.handleUnaryCall<_gatehouse_v1_GrantRequest__Output, _gatehouse_v1_GrantResponse>;
  
  ListMyTransactions: grpc.handleUnaryCall<_gatehouse_v1_ListMyTransactionsRequest__Output, _gatehouse_v1_ListTransactionsResponse>;
  
  ListTransactions: grpc.handleUnaryCall<_gatehouse_v1_ListTransactionsRequest__Output, _gatehouse_v1_ListTransactionsResponse>;
  
  PutAlerts: grpc.handleUnaryCall<_gatehouse_v1_PutAlertsRequest__Output, _gatehouse_v1_PointsAlerts>;
  
  PutDefaultConfig: grpc.handleUnaryCall<_gatehouse_v1_PutDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig>;
  
  RefundTransaction: grpc.handleUnaryCall<_gatehouse_v1_RefundTransactionRequest__Output, _gatehouse_v1_RefundTransactionResponse>;
  
  ReleaseHold: grpc.handleUnaryCall<_gatehouse_v1_ReleaseHoldRequest__Output, _gatehouse_v1_Hold>;
  
  SettleHold: grpc.handleUnaryCall<_gatehouse_v1_SettleHoldRequest__Output, _gatehouse_v1_SettleHoldResponse>;
  
}

export interface PointsServiceDefinition extends grpc.ServiceDefinition {
  Consume: MethodDefinition<_gatehouse_v1_ConsumeRequest, _gatehouse_v1_ConsumeResponse, _gatehouse_v1_ConsumeRequest__Output, _gatehouse_v1_ConsumeResponse__Output>
  CreateHold: MethodDefinition<_gatehouse_v1_CreateHoldRequest, _gatehouse_v1_Hold, _gatehouse_v1_CreateHoldRequest__Output, _gatehouse_v1_Hold__Output>
  GetAlerts: MethodDefinition<_gatehouse_v1_GetAlertsRequest, _gatehouse_v1_PointsAlerts, _gatehouse_v1_GetAlertsRequest__Output, _gatehouse_v1_PointsAlerts__Output>
  GetDefaultConfig: MethodDefinition<_gatehouse_v1_GetDefaultConfigRequest, _gatehouse_v1_DefaultPointsConfig, _gatehouse_v1_GetDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig__Output>
  GetHold: MethodDefinition<_gatehouse_v1_GetHoldRequest, _gatehouse_v1_Hold, _gatehouse_v1_GetHoldRequest__Output, _gatehouse_v1_Hold__Output>
  GetMySummary: MethodDefinition<_gatehouse_v1_GetMySummaryRequest, _gatehouse_v1_PointsSummary, _gatehouse_v1_GetMySummaryRequest__Output, _gatehouse_v1_PointsSummary__Output>
  GetSummary: MethodDefinition<_gatehouse_v1_GetSummaryRequest, _gatehouse_v1_PointsSummary, _gatehouse_v1_GetSummaryRequest__Output, _gatehouse_v1_PointsSummary__Output>
  Grant: MethodDefinition<_gatehouse_v1_GrantRequest, _gatehouse_v1_GrantResponse, _gatehouse_v1_GrantRequest__Output, _gatehouse_v1_GrantResponse__Output>
  ListMyTransactions: MethodDefinition<_gatehouse_v1_ListMyTransactionsRequest, _gatehouse_v1_ListTransactionsResponse, _gatehouse_v1_ListMyTransactionsRequest__Output, _gatehouse_v1_ListTransactionsResponse__Output>
  ListTransactions: MethodDefinition<_gatehouse_v1_ListTransactionsRequest, _gatehouse_v1_ListTransactionsResponse, _gatehouse_v1_ListTransactionsRequest__Output, _gatehouse_v1_ListTransactionsResponse__Output>
  PutAlerts: MethodDefinition<_gatehouse_v1_PutAlertsRequest, _gatehouse_v1_PointsAlerts, _gatehouse_v1_PutAlertsRequest__Output, _gatehouse_v1_PointsAlerts__Output>
  PutDefaultConfig: MethodDefinition<_gatehouse_v1_PutDefaultConfigRequest, _gatehouse_v1_DefaultPointsConfig, _gatehouse_v1_PutDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig__Output>
  RefundTransaction: MethodDefinition<_gatehouse_v1_RefundTransactionRequest, _gatehouse_v1_RefundTransactionResponse, _gatehouse_v1_RefundTransactionRequest__Output, _gatehouse_v1_RefundTransactionResponse__Output>
  ReleaseHold: MethodDefinition<_gatehouse_v1_ReleaseHoldRequest, _gatehouse_v1_Hold, _gatehouse_v1_ReleaseHoldRequest__Output, _gatehouse_v1_Hold__Output>
  SettleHold: MethodDefinition<_gatehouse_v1_SettleHoldRequest, _gatehouse_v1_SettleHoldResponse, _gatehouse_v1_SettleHoldRequest__Output, _gatehouse_v1_SettleHoldResponse__Output>
}
