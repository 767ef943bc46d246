// Original file: google/api/httpbody.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../google/protobuf/Any.ts';

export interface HttpBody {
  'contentType'?: (string);
  'data'?: (Buffer | Uint8Array | string);
  'extensions'?: (_google_protobuf_Any)[];
}

export interface HttpBody__Output {
  'contentType': (string);
  'data': (Buffer);
  'extensions': (_google_protobuf_Any__Output)[];
}
