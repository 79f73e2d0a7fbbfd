import type { OfflineWebPage } from "./offline-web-page.js";

/**
 * Developer pages of the offline web-search corpus, on three kinds of host a coding assistant searches
 * separately (restricted with `includeDomains`): a question-and-answer forum, a code-snippet host and a
 * language's reference documentation. Original text; `.example` hosts, as the rest of the corpus.
 */
export const DEVELOPER_PAGES: readonly OfflineWebPage[] = [
  {
    url: "https://answers.dev-forum.example/q/limit-concurrent-requests-asyncio",
    title: "How do I limit the number of concurrent requests with asyncio?",
    paragraphs: [
      "Question: I start a thousand HTTP requests with asyncio.gather and the server starts refusing them. How can I keep at most ten requests in flight at once?",
      "Accepted answer: create an asyncio.Semaphore(10) and acquire it around each request with async with semaphore. Every task is still created up front, but only ten hold the semaphore at a time; the others wait without blocking the event loop.",
      "Another answer: for very long lists, a fixed pool of worker tasks reading from an asyncio.Queue keeps memory flat, because you do not create one task per request.",
    ],
  },
  {
    url: "https://answers.dev-forum.example/q/retry-http-429-python",
    title: "Retrying HTTP 429 Too Many Requests in Python",
    paragraphs: [
      "Question: my client gets 429 Too Many Requests from an API under load. What is the right way to retry?",
      "Accepted answer: read the Retry-After header, which is either a number of seconds or an HTTP date, and wait that long before the next attempt. Without the header, back off exponentially with jitter and stop after a few attempts.",
      "Do not retry 400 or 401 responses: the request itself is wrong, and repeating it only wastes the rate limit.",
    ],
  },
  {
    url: "https://snippets.code-hub.example/asyncio/bounded-gather",
    title: "bounded_gather: asyncio.gather with a concurrency limit",
    paragraphs: [
      "Snippet: async def bounded_gather(limit, *coros): semaphore = asyncio.Semaphore(limit); async def run(coro): async with semaphore: return await coro; return await asyncio.gather(*(run(c) for c in coros)).",
      "Usage: results = await bounded_gather(10, *(fetch(session, url) for url in urls)). Results come back in the order of the coroutines, like asyncio.gather.",
    ],
  },
  {
    url: "https://snippets.code-hub.example/http/retry-after-backoff",
    title: "Retry with Retry-After and exponential backoff",
    paragraphs: [
      "Snippet: for attempt in range(5): response = await client.get(url); if response.status_code != 429: return response; delay = float(response.headers.get('Retry-After', 2 ** attempt)); await asyncio.sleep(delay + random.random()).",
      "The loop gives up after five attempts and adds up to one second of jitter, so many clients rate-limited at the same moment do not retry together.",
    ],
  },
  {
    url: "https://docs.python-lang.example/library/asyncio-sync#semaphore",
    title: "asyncio synchronization primitives: Semaphore",
    paragraphs: [
      "class asyncio.Semaphore(value=1): a semaphore manages an internal counter decremented by each acquire() call and incremented by each release() call. The counter can never go below zero; when acquire() finds that it is zero, it waits until some task calls release().",
      "The preferred way to use a Semaphore is an async with statement, which acquires it on entry and releases it on exit even when the body raises an exception.",
    ],
  },
  {
    url: "https://docs.python-lang.example/library/asyncio-task#gather",
    title: "Coroutines and tasks: asyncio.gather",
    paragraphs: [
      "awaitable asyncio.gather(*aws, return_exceptions=False): run awaitable objects concurrently. If all awaitables complete successfully, the result is a list of returned values in the order of aws.",
      "If return_exceptions is False, the first raised exception is immediately propagated to the task that awaits gather; the other awaitables keep running. If it is True, exceptions are treated the same as successful results and collected in the result list.",
    ],
  },
];
