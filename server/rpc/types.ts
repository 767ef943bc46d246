// The API's types, derived from the ones proto-loader-gen-types writes from proto/ (generated/, see
// proto-types.ts), so a handler, a service table and a CLI call are checked against proto/ itself.
// The generator writes two shapes per message: `Foo`, the input shape proto-loader serialises (every
// field optional, an absent one is its default), and `Foo__Output`, what it deserialises (defaults
// filled in; only proto3 `optional` fields may be absent, an unset message field is null).
import type { MethodDefinition } from '@grpc/proto-loader';
import type { CallContext } from './context.ts';
import type { AdminServiceDefinition } from './generated/gatehouse/v1/AdminService.ts';
import type { AuthServiceDefinition } from './generated/gatehouse/v1/AuthService.ts';
import type { BillingServiceDefinition } from './generated/gatehouse/v1/BillingService.ts';
import type { PagesServiceDefinition } from './generated/gatehouse/v1/PagesService.ts';
import type { PointsServiceDefinition } from './generated/gatehouse/v1/PointsService.ts';
import type { QuotaWindowList__Output } from './generated/gatehouse/v1/QuotaWindowList.ts';
import type { StringList__Output } from './generated/gatehouse/v1/StringList.ts';
import type { Timestamp__Output } from './generated/google/protobuf/Timestamp.ts';

/** Every service of proto/ by full name (a test holds this list to proto/). */
export interface Services {
  'gatehouse.v1.AdminService': AdminServiceDefinition;
  'gatehouse.v1.AuthService': AuthServiceDefinition;
  'gatehouse.v1.BillingService': BillingServiceDefinition;
  'gatehouse.v1.PagesService': PagesServiceDefinition;
  'gatehouse.v1.PointsService': PointsServiceDefinition;
}
export type ServiceName = keyof Services;

/** A generated service definition without the index signature it inherits from grpc-js. */
type Methods<S extends ServiceName> = { [M in keyof Services[S] as string extends M ? never : M]: Services[S][M] };
/** RPC names as proto/ spells them (CreateRealm). */
export type MethodName<S extends ServiceName> = keyof Methods<S> & string;

/** The four shapes of an RPC, as the generated MethodDefinition carries them. */
type Shapes<S extends ServiceName, M extends MethodName<S>> =
  Methods<S>[M] extends MethodDefinition<infer ReqIn extends object, infer ResIn extends object, infer ReqOut extends object, infer ResOut extends object>
    ? { reqIn: ReqIn; resIn: ResIn; reqOut: ReqOut; resOut: ResOut }
    : never;
/** A request as a client may send it (input shape). */
export type RequestIn<S extends ServiceName, M extends MethodName<S>> = Shapes<S, M>['reqIn'];
/** A request as a handler receives it, whichever transport carried it (output shape). */
export type RequestOut<S extends ServiceName, M extends MethodName<S>> = Shapes<S, M>['reqOut'];
/** A response as a handler may return it (input shape). */
export type ResponseIn<S extends ServiceName, M extends MethodName<S>> = Shapes<S, M>['resIn'];
/** A response as a gRPC client receives it (output shape). */
export type ResponseOut<S extends ServiceName, M extends MethodName<S>> = Shapes<S, M>['resOut'];

export type Handler<S extends ServiceName, M extends MethodName<S>> = (req: RequestOut<S, M>, ctx: CallContext) => Promise<ResponseIn<S, M>>;

/** A service implementation, connect-es style: one handler per RPC under its lowerCamel name (the
 *  name dispatch.ts binds). Its methods' parameters take their types from here. */
export type ServiceImpl<S extends ServiceName> = { [M in MethodName<S> as Uncapitalize<M>]: Handler<S, M> };

/** Every service's implementation: a missing service or RPC does not compile. */
export type ServiceTable = { [S in ServiceName]: ServiceImpl<S> };

/** Messages with the (json_list) option: their JSON is the bare array of their one repeated field
 *  (a test holds this list to proto/). */
export interface JsonLists {
  'gatehouse.v1.QuotaWindowList': QuotaWindowList__Output;
  'gatehouse.v1.StringList': StringList__Output;
}

/** An output-shape message in the proto3 JSON server/gateway/json.ts writes (messageToJson):
 *  timestamps as RFC 3339 strings, json_list messages as arrays, bytes as base64; integers stay
 *  numbers, unset messages null, unset optional scalars absent. json_name renames are not modelled. */
export type ProtoJson<T> = { [K in keyof T]: JsonValue<T[K]> };

type JsonValue<V> = V extends Buffer
  ? string
  : V extends ReadonlyArray<infer E>
    ? JsonValue<E>[]
    : V extends object
      ? Same<V, Timestamp__Output> extends true
        ? string
        : IsJsonList<V> extends true
          ? JsonValue<V[keyof V]>
          : ProtoJson<V>
      : V;

// Messages are matched by their exact shape: a wider message (PointsSummary, whose `windows` would
// also fit QuotaWindowList) is not one of them.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type IsJsonList<V> = true extends { [L in keyof JsonLists]: Same<V, JsonLists[L]> }[keyof JsonLists] ? true : false;
