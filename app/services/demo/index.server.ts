// The demo domain's public surface for server code: loaders, actions and other domains' services.
export { seedDemo, seedDemoWhenAsked } from "./seed.server";
