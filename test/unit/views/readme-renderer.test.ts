import { expect } from 'chai';
import { renderReadme } from '../../../src/adapters/views/readme-renderer.js';

describe('the README as the home page shows it', () => {
  it('shifts headings down one level and keeps http(s), mailto, local and fragment links', () => {
    const html = renderReadme(
      '# L2\n\n## Run\n\n[site](https://l2.example/) [mail](mailto:ops@l2.example) [home](/) [top](#run)',
    );
    expect(html).to.include('<h2>L2</h2>').and.include('<h3>Run</h3>');
    for (const href of ['https://l2.example/', 'mailto:ops@l2.example', '/', '#run'])
      expect(html).to.include(`href="${href}"`);
  });

  it('shows repository links (docs/…) as their text only', () => {
    expect(renderReadme('[the docs](docs/accounts.md)')).to.equal('<p>the docs</p>\n');
  });

  it('lets nothing in it run: script links, raw HTML, event handlers and protocol-relative links are text', () => {
    const html = renderReadme(
      [
        '[a](javascript:alert(1)) [b](JavaScript:alert(2)) [c](data:text/html,x) [d](//evil.example/x)',
        '<javascript:alert(3)>',
        '<script>alert(4)</script>',
        '<a href="javascript:alert(5)">e</a> <img src=x onerror="alert(6)">',
        '![f](javascript:alert(7)) ![g](//evil.example/p.png)',
      ].join('\n\n'),
    );
    expect(html).not.to.match(/<script|<a href="javascript|<img src="?x|href="(javascript|data|\/\/)/i);
    expect(html).not.to.match(/src="(javascript|\/\/)/i);
    expect(html).to.include('&#60;script&#62;');
  });

  it('keeps the screenshots, served from /static/screenshots/, and makes code blocks focusable', () => {
    const html = renderReadme('![Home](docs/screenshots/home.png)\n\n```sh\nnpm start\n```');
    expect(html).to.include('src="/static/screenshots/home.png"');
    expect(html).to.include('<pre tabindex="0" aria-label="Code example">');
  });
});
