// Original file: gatehouse/v1/pages.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { HttpBody as _google_api_HttpBody, HttpBody__Output as _google_api_HttpBody__Output } from '../../google/api/HttpBody.ts';
import type { PageRequest as _gatehouse_v1_PageRequest, PageRequest__Output as _gatehouse_v1_PageRequest__Output } from '../../gatehouse/v1/PageRequest.ts';

export interface PagesServiceClient extends grpc.Client {
  UserPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsPage(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  UserPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsScript(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsScript(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsScript(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  UserPointsStyle(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  userPointsStyle(argument: _gatehouse_v1_PageRequest, callback: grpc.requestCallback<_google_api_HttpBody__Output>): grpc.ClientUnaryCall;
  
}

export interface PagesServiceHandlers extends grpc.UntypedServiceImplementation {
  UserPointsPage: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  UserPointsScript: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
  UserPointsStyle: grpc.handleUnaryCall<_gatehouse_v1_PageRequest__Output, _google_api_HttpBody>;
  
}

export interface PagesServiceDefinition extends grpc.ServiceDefinition {
  UserPointsPage: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  UserPointsScript: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
  UserPointsStyle: MethodDefinition<_gatehouse_v1_PageRequest, _google_api_HttpBody, _gatehouse_v1_PageRequest__Output, _google_api_HttpBody__Output>
}
