// The documents domain's public surface for any code, the browser's included (no server-only module).
export { attachmentDisposition } from "./csv";
