// Original file: gatehouse/v1/admin.proto


export interface ListRealmsRequest {
}

export interface ListRealmsRequest__Output {
}
