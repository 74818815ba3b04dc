// Module shapes of the non-code files the source imports (embedded into the binary).
declare module "*.sql" {
  const text: string;
  export default text;
}
declare module "*.wasm" {
  const path: string;
  export default path;
}
declare module "*.onnx" {
  const path: string;
  export default path;
}
declare module "*.html" {
  const path: string;
  export default path;
}
declare module "*.css" {
  const path: string;
  export default path;
}
// The console's scripts are browser modules served as files, never imported as code here.
declare module "*.js" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
