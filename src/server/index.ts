export { createApp, type AppDeps } from "./app.ts";
export { ApiError, errorBody } from "./errors.ts";
