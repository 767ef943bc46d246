// The rich error model on gRPC: google.rpc.Status with one google.rpc.ErrorInfo
// (reason = our error code, domain = "gatehouse", metadata = the extra fields as strings),
// sent in the grpc-status-details-bin trailer.
import protobuf from 'protobufjs';
import { resolveImport } from '../rpc/proto.ts';

// Google's own definitions (google/rpc/status.proto, google/rpc/error_details.proto).
const root = new protobuf.Root();
root.resolvePath = (_o, target) => resolveImport(target);
root.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto'].map(resolveImport));
const StatusType = root.lookupType('google.rpc.Status');
const ErrorInfoType = root.lookupType('google.rpc.ErrorInfo');
const ERROR_INFO_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

export interface DecodedStatus {
  code: number;
  message: string;
  errorInfo: { reason: string; domain: string; metadata: Record<string, string> } | null;
}

export function encodeStatusDetails(code: number, message: string, reason: string, metadata: Record<string, string>): Buffer {
  const info = ErrorInfoType.encode(ErrorInfoType.create({ reason, domain: 'gatehouse', metadata })).finish();
  const status = StatusType.create({ code, message, details: [{ type_url: ERROR_INFO_URL, value: info }] });
  return Buffer.from(StatusType.encode(status).finish());
}

export function decodeStatusDetails(buf: Buffer): DecodedStatus {
  const s = StatusType.toObject(StatusType.decode(buf), { defaults: true }) as {
    code: number;
    message: string;
    details: Array<{ type_url: string; value: Uint8Array }>;
  };
  const any = s.details.find((d) => d.type_url === ERROR_INFO_URL);
  const errorInfo = any ? (ErrorInfoType.toObject(ErrorInfoType.decode(any.value), { defaults: true }) as DecodedStatus['errorInfo']) : null;
  return { code: s.code, message: s.message, errorInfo };
}
