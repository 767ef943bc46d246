# A strict reflection client: Python's protobuf DescriptorPool, fed only what the server's
# reflection answers (grpc.reflection.v1), then a dynamic call built from it.
# Usage: reflection-client.py GENERATED_DIR ADDRESS SERVICE METHOD REQUEST_JSON API_KEY
# GENERATED_DIR holds reflection_pb2.py (protoc --python_out of grpc/reflection/v1/reflection.proto,
# imported on its own: the grpc package itself is grpcio's).
# Prints the answer as proto3 JSON; exits non-zero (with the reason on stderr) on any failure.
import json
import sys

sys.path.insert(0, sys.argv[1])

import grpc  # noqa: E402
from google.protobuf import descriptor_pb2, descriptor_pool, json_format, message_factory  # noqa: E402
import reflection_pb2  # noqa: E402

address, service, method, request_json, api_key = sys.argv[2:7]
channel = grpc.insecure_channel(address)
stream = channel.stream_stream(
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
    response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
)


def ask(**request):
    (answer,) = list(stream(iter([reflection_pb2.ServerReflectionRequest(**request)]), timeout=15))
    if answer.HasField("error_response"):
        raise SystemExit("reflection error: %s" % answer.error_response.error_message)
    return answer


listed = [s.name for s in ask(list_services="").list_services_response.service]
if service not in listed:
    raise SystemExit("%s not listed: %s" % (service, listed))

# Every file the answers bring, then any dependency they name but did not bring, by file name.
files = {}


def take(answer):
    for raw in answer.file_descriptor_response.file_descriptor_proto:
        proto = descriptor_pb2.FileDescriptorProto.FromString(raw)
        files.setdefault(proto.name, proto)


take(ask(file_containing_symbol=service))
while True:
    missing = sorted({d for f in files.values() for d in f.dependency} - set(files))
    if not missing:
        break
    for name in missing:
        take(ask(file_by_filename=name))

# A pool adds a file only once its dependencies are in: add them in that order.
pool = descriptor_pool.DescriptorPool()
added = set()
while len(added) < len(files):
    ready = [f for name, f in sorted(files.items()) if name not in added and all(d in added for d in f.dependency)]
    if not ready:
        raise SystemExit("dependency cycle or gap among %s" % sorted(set(files) - added))
    for f in ready:
        pool.Add(f)
        added.add(f.name)

rpc = pool.FindServiceByName(service).FindMethodByName(method)


def message_class(descriptor):
    if hasattr(message_factory, "GetMessageClass"):
        return message_factory.GetMessageClass(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


Request = message_class(rpc.input_type)
Response = message_class(rpc.output_type)
call = channel.unary_unary(
    "/%s/%s" % (service, method),
    request_serializer=Request.SerializeToString,
    response_deserializer=Response.FromString,
)
answer = call(json_format.Parse(request_json, Request()), metadata=[("authorization", "Bearer " + api_key)], timeout=15)
print(json.dumps({"files": sorted(files), "answer": json.loads(json_format.MessageToJson(answer))}))
