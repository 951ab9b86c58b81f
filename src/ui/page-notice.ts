import { createContext } from 'react';

/**
 * A word from the page around the map, shown among the map's notices (dismissible): the app says
 * here why it did not take a `?pins=` of its address. Not part of the library's API: a context,
 * so `<Pinmap/>`'s props stay what the README lists.
 */
export const PageNoticeContext = createContext<string | undefined>(undefined);
