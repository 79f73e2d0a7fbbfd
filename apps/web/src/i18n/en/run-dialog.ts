/** The editor's run dialog: inputs, draft or version, conversation. */
export const runDialog = {
  title: "Run the workflow",
  version: "Run",
  draft: "The draft on the canvas",
  published: "Published version v{version}",
  versionHelp: "A published version runs as it was published, with its own prompts and settings.",
  thread: "Conversation",
  threadAuto: "A new one if the workflow keeps a conversation",
  scriptedTitle: "Test models, not language models:",
  scripted: "{nodes} run on offline test models, which echo their input or give answers written in advance. They show how the workflow runs, not what a language model would say.",
};
