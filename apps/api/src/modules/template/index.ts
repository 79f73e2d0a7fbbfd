/** The template module's doorway: the schema's resolver and the service the server builds. */
export { TemplateResolver } from "./template.resolver.js";
export { TemplateService } from "./template.service.js";
