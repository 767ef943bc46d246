// Original file: gatehouse/v1/admin.proto


export interface WhoAmIRequest {
}

export interface WhoAmIRequest__Output {
}
