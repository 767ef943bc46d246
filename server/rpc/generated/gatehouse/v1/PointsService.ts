// Original file: gatehouse/v1/points.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConsumeRequest as _gatehouse_v1_ConsumeRequest, ConsumeRequest__Output as _gatehouse_v1_ConsumeRequest__Output } from '../../gatehouse/v1/ConsumeRequest.ts';
import type { ConsumeResponse as _gatehouse_v1_ConsumeResponse, ConsumeResponse__Output as _gatehouse_v1_ConsumeResponse__Output } from '../../gatehouse/v1/ConsumeResponse.ts';
import type { DefaultPointsConfig as _gatehouse_v1_DefaultPointsConfig, DefaultPointsConfig__Output as _gatehouse_v1_DefaultPointsConfig__Output } from '../../gatehouse/v1/DefaultPointsConfig.ts';
import type { GetDefaultConfigRequest as _gatehouse_v1_GetDefaultConfigRequest, GetDefaultConfigRequest__Output as _gatehouse_v1_GetDefaultConfigRequest__Output } from '../../gatehouse/v1/GetDefaultConfigRequest.ts';
import type { GetMySummaryRequest as _gatehouse_v1_GetMySummaryRequest, GetMySummaryRequest__Output as _gatehouse_v1_GetMySummaryRequest__Output } from '../../gatehouse/v1/GetMySummaryRequest.ts';
import type { GetSummaryRequest as _gatehouse_v1_GetSummaryRequest, GetSummaryRequest__Output as _gatehouse_v1_GetSummaryRequest__Output } from '../../gatehouse/v1/GetSummaryRequest.ts';
import type { GrantRequest as _gatehouse_v1_GrantRequest, GrantRequest__Output as _gatehouse_v1_GrantRequest__Output } from '../../gatehouse/v1/GrantRequest.ts';
import type { GrantResponse as _gatehouse_v1_GrantResponse, GrantResponse__Output as _gatehouse_v1_GrantResponse__Output } from '../../gatehouse/v1/GrantResponse.ts';
import type { PointsSummary as _gatehouse_v1_PointsSummary, PointsSummary__Output as _gatehouse_v1_PointsSummary__Output } from '../../gatehouse/v1/PointsSummary.ts';
import type { PutDefaultConfigRequest as _gatehouse_v1_PutDefaultConfigRequest, PutDefaultConfigRequest__Output as _gatehouse_v1_PutDefaultConfigRequest__Output } from '../../gatehouse/v1/PutDefaultConfigRequest.ts';

export interface PointsServiceClient extends grpc.Client {
  Consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  Consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  Consume(argument: _gatehouse_v1_ConsumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  Consume(argument: _gatehouse_v1_ConsumeRequest, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  consume(argument: _gatehouse_v1_ConsumeRequest, callback: grpc.requestCallback<_gatehouse_v1_ConsumeResponse__Output>): grpc.ClientUnaryCall;
  
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  GetDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  getDefaultConfig(argument: _gatehouse_v1_GetDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  
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
  
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  PutDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  putDefaultConfig(argument: _gatehouse_v1_PutDefaultConfigRequest, callback: grpc.requestCallback<_gatehouse_v1_DefaultPointsConfig__Output>): grpc.ClientUnaryCall;
  
}

export interface PointsServiceHandlers extends grpc.UntypedServiceImplementation {
  Consume: grpc.handleUnaryCall<_gatehouse_v1_ConsumeRequest__Output, _gatehouse_v1_ConsumeResponse>;
  
  GetDefaultConfig: grpc.handleUnaryCall<_gatehouse_v1_GetDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig>;
  
  GetMySummary: grpc.handleUnaryCall<_gatehouse_v1_GetMySummaryRequest__Output, _gatehouse_v1_PointsSummary>;
  
  GetSummary: grpc.handleUnaryCall<_gatehouse_v1_GetSummaryRequest__Output, _gatehouse_v1_PointsSummary>;
  
  Grant: grpc.handleUnaryCall<_gatehouse_v1_GrantRequest__Output, _gatehouse_v1_GrantResponse>;
  
  PutDefaultConfig: grpc.handleUnaryCall<_gatehouse_v1_PutDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig>;
  
}

export interface PointsServiceDefinition extends grpc.ServiceDefinition {
  Consume: MethodDefinition<_gatehouse_v1_ConsumeRequest, _gatehouse_v1_ConsumeResponse, _gatehouse_v1_ConsumeRequest__Output, _gatehouse_v1_ConsumeResponse__Output>
  GetDefaultConfig: MethodDefinition<_gatehouse_v1_GetDefaultConfigRequest, _gatehouse_v1_DefaultPointsConfig, _gatehouse_v1_GetDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig__Output>
  GetMySummary: MethodDefinition<_gatehouse_v1_GetMySummaryRequest, _gatehouse_v1_PointsSummary, _gatehouse_v1_GetMySummaryRequest__Output, _gatehouse_v1_PointsSummary__Output>
  GetSummary: MethodDefinition<_gatehouse_v1_GetSummaryRequest, _gatehouse_v1_PointsSummary, _gatehouse_v1_GetSummaryRequest__Output, _gatehouse_v1_PointsSummary__Output>
  Grant: MethodDefinition<_gatehouse_v1_GrantRequest, _gatehouse_v1_GrantResponse, _gatehouse_v1_GrantRequest__Output, _gatehouse_v1_GrantResponse__Output>
  PutDefaultConfig: MethodDefinition<_gatehouse_v1_PutDefaultConfigRequest, _gatehouse_v1_DefaultPointsConfig, _gatehouse_v1_PutDefaultConfigRequest__Output, _gatehouse_v1_DefaultPointsConfig__Output>
}
