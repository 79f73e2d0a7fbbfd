/** One page of the offline web-search corpus. */
export interface OfflineWebPage {
  url: string;
  title: string;
  /** Scored one by one: a page's score is its best paragraph's. */
  paragraphs: readonly string[];
}
