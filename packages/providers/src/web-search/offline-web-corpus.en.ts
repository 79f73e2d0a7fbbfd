import type { OfflineWebPage } from "./offline-web-page.js";

/**
 * English pages of the offline web-search corpus: short, original explanations of the topics Weft's
 * pipelines search for (retrieval, ranking, caching, reliability, everyday programming). The hosts use
 * the reserved `.example` top-level domain, so no result can be mistaken for a real site.
 */
export const ENGLISH_PAGES: readonly OfflineWebPage[] = [
  {
    url: "https://rag-notes.example/retrieval-augmented-generation",
    title: "Retrieval-augmented generation in brief",
    paragraphs: [
      "Retrieval-augmented generation (RAG) answers a question in two steps: it first retrieves passages relevant to the question from a document collection, then asks a language model to answer using those passages as context.",
      "Grounding the answer in retrieved text lets the model cite sources and use information that was not in its training data, such as internal manuals or recent documents.",
      "The quality of a RAG answer depends mostly on retrieval: if the right passage is not among the retrieved ones, the model cannot use it. Common improvements are better chunking, hybrid search, query rewriting and reranking.",
    ],
  },
  {
    url: "https://rag-notes.example/chunking",
    title: "Chunking documents for retrieval",
    paragraphs: [
      "Documents are split into chunks before they are embedded, because a whole document rarely fits one embedding well and retrieval should return only the relevant part.",
      "Chunks of a few hundred to about a thousand characters are typical. Splitting at paragraph and sentence boundaries keeps each chunk readable; a small overlap between neighbouring chunks keeps sentences that straddle a boundary findable.",
      "Keeping each chunk's position in its document makes it possible to fetch its neighbours later, which restores context that a single chunk cut away.",
    ],
  },
  {
    url: "https://rag-notes.example/embeddings-cosine-similarity",
    title: "Embeddings and cosine similarity",
    paragraphs: [
      "An embedding maps a text to a vector of numbers so that texts with similar content get vectors pointing in similar directions.",
      "Cosine similarity measures the angle between two vectors: 1 means the same direction, 0 means unrelated. For vectors normalised to length 1 it equals their dot product.",
      "Vector search returns the stored chunks whose embeddings are most similar to the embedding of the query. Embeddings from different models live in different spaces and must not be compared with each other.",
    ],
  },
  {
    url: "https://rag-notes.example/bm25",
    title: "BM25 keyword ranking",
    paragraphs: [
      "BM25 is a classic ranking function for keyword search. A document scores higher when it contains the query's terms often, when those terms are rare in the collection, and when the document is not unusually long.",
      "Term frequency saturates in BM25: the tenth occurrence of a word adds much less than the first. Two parameters, usually called k1 and b, control saturation and length normalisation.",
      "Keyword search finds exact names, codes and rare words that embeddings may blur, which is why it is often combined with vector search.",
    ],
  },
  {
    url: "https://rag-notes.example/hybrid-search",
    title: "Hybrid search: combining keyword and vector scores",
    paragraphs: [
      "Hybrid search runs a keyword search and a vector search for the same query and fuses the two result lists.",
      "Reciprocal rank fusion adds up 1 / (k + rank) from each list and ignores raw scores. Relative score fusion first normalises each list's scores to the range 0 to 1 and then takes a weighted sum.",
      "A weight often called alpha sets the balance: alpha 1 uses only the vector scores, alpha 0 only the keyword scores. Values between 0.5 and 0.8 are common starting points.",
    ],
  },
  {
    url: "https://rag-notes.example/reranking",
    title: "Reranking retrieved passages",
    paragraphs: [
      "A first-stage retriever is tuned for speed and recall; a reranker then reorders a short list of candidates by how well each one answers the query.",
      "Rerankers can be cross-encoder models that read the query and a passage together, or a general language model asked to return the indices of the passages in order of relevance.",
      "When a language model reranks, its reply must be checked: indices can be out of range, repeated or missing. Falling back to the original order is safer than trusting a malformed reply.",
    ],
  },
  {
    url: "https://rag-notes.example/multi-query-retrieval",
    title: "Multi-query retrieval and query rewriting",
    paragraphs: [
      "A single phrasing of a question may miss relevant passages that use other words. Multi-query retrieval asks several variants of the question and merges the results.",
      "Variants can be rewrites produced by a language model, sub-questions of a complex question, or the original question with missing aspects added after a first attempt.",
      "Merged results are deduplicated by chunk, usually keeping the best score a chunk received from any variant.",
    ],
  },
  {
    url: "https://rag-notes.example/hallucination-checks",
    title: "Checking answers for hallucinations",
    paragraphs: [
      "A hallucination is a statement in a generated answer that the provided sources do not support.",
      "A grounding check gives a grader the answer and the retrieved passages and asks whether every claim is supported, with a score and a reason. An answer that fails can be regenerated with the reason as feedback.",
      "Retries should be bounded: after a fixed number of attempts the pipeline should return its best answer with a warning or report that it could not answer.",
    ],
  },
  {
    url: "https://rag-notes.example/semantic-cache",
    title: "Semantic caching of model answers",
    paragraphs: [
      "A semantic cache stores answers under the embedding of the question that produced them. A new question whose embedding is similar enough to a stored one gets the stored answer without calling the model again.",
      "The similarity threshold trades savings against risk: a low threshold returns answers to questions that only look alike. Thresholds around 0.85 to 0.95 cosine similarity are common.",
      "Cached answers should expire after a time to live and be kept apart per application or version, because a changed pipeline may answer differently.",
    ],
  },
  {
    url: "https://rag-notes.example/hnsw-index",
    title: "HNSW approximate nearest neighbour search",
    paragraphs: [
      "Hierarchical navigable small world (HNSW) graphs index vectors for approximate nearest neighbour search. Each vector is linked to some of its neighbours on several layers, the upper layers being sparser.",
      "A search starts at the top layer and greedily moves towards the query, descending layer by layer. The size of the candidate list during search, often called ef, trades speed for recall.",
      "Because the search is approximate, the true nearest neighbour is occasionally missed. Build parameters such as the number of links per node and the construction candidate list affect both recall and memory.",
    ],
  },
  {
    url: "https://ml-notes.example/transformer-self-attention",
    title: "Self-attention in transformers",
    paragraphs: [
      "Self-attention lets every position of a sequence look at every other position. Each token is projected into a query, a key and a value vector.",
      "The attention weights of a token are the softmax of the dot products of its query with all keys, divided by the square root of the key dimension. The token's output is the weighted sum of the value vectors.",
      "Multi-head attention runs several attention operations in parallel with different projections and concatenates their outputs. The transformer architecture was introduced in the 2017 paper Attention Is All You Need.",
    ],
  },
  {
    url: "https://web-notes.example/http-429-retry-after",
    title: "HTTP 429 Too Many Requests and Retry-After",
    paragraphs: [
      "A server answers 429 Too Many Requests when a client has sent too many requests in a given time. The response may include a Retry-After header.",
      "Retry-After holds either a number of seconds to wait or an HTTP date after which the client may try again. Clients should wait at least that long before retrying.",
      "Errors such as 401 Unauthorized are permanent for a given request: retrying with the same credentials will fail again, so they should be reported rather than retried.",
    ],
  },
  {
    url: "https://web-notes.example/exponential-backoff",
    title: "Exponential backoff with jitter",
    paragraphs: [
      "When a call fails with a transient error, waiting before the next attempt gives the other side time to recover. Exponential backoff doubles the wait after each failure, up to a ceiling.",
      "Jitter adds randomness to the wait so that many clients that failed at the same moment do not all retry at the same moment again.",
      "A retry policy also needs a limit on the number of attempts and should never retry errors that cannot succeed, such as invalid input or refused credentials.",
    ],
  },
  {
    url: "https://python-notes.example/asyncio-basics",
    title: "Python asyncio basics",
    paragraphs: [
      "asyncio is Python's standard library for asynchronous input and output. A coroutine is defined with async def and paused with await while it waits for something.",
      "asyncio.run starts an event loop and runs a coroutine until it finishes. asyncio.gather runs several awaitables concurrently and returns their results in the order they were given.",
      "Blocking calls such as time.sleep or a synchronous HTTP request stop the whole event loop; use await asyncio.sleep or an asynchronous client instead, or move the blocking work to a thread with asyncio.to_thread.",
    ],
  },
  {
    url: "https://python-notes.example/virtual-environments",
    title: "Python virtual environments",
    paragraphs: [
      "A virtual environment is a directory with its own Python interpreter links and installed packages, so projects do not share or break each other's dependencies.",
      "Create one with python -m venv .venv and activate it with source .venv/bin/activate on Linux and macOS, or .venv\\Scripts\\activate on Windows.",
      "Inside an activated environment, pip install puts packages in that environment only. Recording exact versions in a requirements or lock file makes the environment reproducible.",
    ],
  },
  {
    url: "https://python-notes.example/list-comprehensions",
    title: "List comprehensions in Python",
    paragraphs: [
      "A list comprehension builds a list from an iterable in one expression: [x * x for x in range(10)] gives the squares of 0 to 9.",
      "A condition filters items: [word for word in words if word.isalpha()]. Several for clauses nest from left to right.",
      "For very large inputs a generator expression, written with parentheses instead of brackets, produces items one at a time without building the whole list in memory.",
    ],
  },
  {
    url: "https://dev-notes.example/git-rebase-vs-merge",
    title: "Git rebase versus merge",
    paragraphs: [
      "git merge joins two branches with a merge commit and keeps both histories as they were. git rebase replays the commits of one branch on top of another, giving a linear history.",
      "Rebasing rewrites the commits it replays, so it should not be used on commits others have already based work on. A fast-forward happens when the target branch has no commits the other lacks.",
      "During a rebase, conflicts are resolved commit by commit: fix the files, git add them, and run git rebase --continue, or git rebase --abort to go back.",
    ],
  },
  {
    url: "https://db-notes.example/postgresql-indexes",
    title: "PostgreSQL index types",
    paragraphs: [
      "B-tree is PostgreSQL's default index type and serves equality and range comparisons on sortable values.",
      "GIN indexes suit values that contain many elements, such as jsonb documents, arrays and full-text search vectors. The pgvector extension adds vector columns with HNSW and IVFFlat indexes for similarity search.",
      "EXPLAIN shows the plan the planner chose; EXPLAIN ANALYZE also runs the query and reports actual times and row counts.",
    ],
  },
  {
    url: "https://dev-notes.example/javascript-promises",
    title: "JavaScript promises and async functions",
    paragraphs: [
      "A promise represents a value that will be available later, or an error. An async function always returns a promise, and await pauses the function until a promise settles.",
      "Promise.all waits for every promise and fails as soon as one fails; Promise.allSettled waits for all and reports each outcome.",
      "An AbortController lets the caller cancel work such as a fetch request: pass its signal to the operation and call abort() to stop it.",
    ],
  },
  {
    url: "https://rag-notes.example/prompt-injection-guardrails",
    title: "Guardrails against prompt injection",
    paragraphs: [
      "Prompt injection is text that tries to make a language model ignore its instructions, for example by asking it to reveal its system prompt.",
      "Guardrails check inputs before they reach the model: length limits, blocked keywords and patterns, and sometimes a separate model that classifies the request. A blocked request should get a clear reason.",
      "Retrieved documents and web pages can carry injected instructions too, so they should be treated as data, never as instructions.",
    ],
  },
];
