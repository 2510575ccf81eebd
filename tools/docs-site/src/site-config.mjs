/** The VitePress config of the site: its pages in `list` ({ name, title }), written to `outDir`. */
export function siteConfig(list, outDir) {
  return {
    title: 'Cairn',
    description: 'Durable, reviewable memory for coding agents',
    outDir,
    cleanUrls: false,
    // The docs are plain markdown: `<dir>` in a sentence is text, never an element.
    markdown: { html: false },
    // A link to a page that does not exist fails the build; the design specs and the
    // repository's files outside docs/ are not part of the site.
    ignoreDeadLinks: [/\/specs\//, /^\.\.\//],
    themeConfig: {
      // Local search: the site fetches nothing from elsewhere.
      search: { provider: 'local' },
      // A newcomer's two first pages, on every page's top bar.
      nav: [
        { text: 'Concepts', link: '/CONCEPTS' },
        { text: 'Getting started', link: '/GETTING-STARTED' },
      ],
      sidebar: [
        {
          text: 'Docs',
          items: list.map(({ name, title }) => ({
            text: title,
            link: `/${name.replace(/\.md$/, '')}`,
          })),
        },
      ],
    },
  };
}
