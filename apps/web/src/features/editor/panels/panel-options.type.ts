/** What the panels offer in their dropdowns, from the API's `models` and `knowledgeBases` queries. */
export interface ModelOption {
  id: string;
  label: string;
  testOnly: boolean;
}

export interface ProviderOption {
  id: string;
  label: string;
  models: readonly ModelOption[];
}

export interface KnowledgeBaseOption {
  id: string;
  name: string;
}

export const INTENSITIES = ["LOW", "MEDIUM", "HIGH"] as const;
export type Intensity = (typeof INTENSITIES)[number];
