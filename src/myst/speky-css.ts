// The stylesheet speky writes as css/speky.css, byte for byte: speky's own asset
// (python/speky/assets/speky.css of github.com/agagniere/speky), shipped here under its
// licence, so that a site's conf.py (`html_static_path = ['markdown/css']`, `speky.css`)
// keeps finding it. The pages test compares it with the file speky's generator writes.
//
// MIT License
//
// Copyright (c) 2025 Antoine Gagniere
//
// Permission is hereby granted, free of charge, to any person obtaining a copy
// of this software and associated documentation files (the "Software"), to deal
// in the Software without restriction, including without limitation the rights
// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
// copies of the Software, and to permit persons to whom the Software is
// furnished to do so, subject to the following conditions:
//
// The above copyright notice and this permission notice shall be included in all
// copies or substantial portions of the Software.
//
// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
// SOFTWARE.
export const SPEKY_CSS = `.highlight-console .gp,
body[data-theme="dark"] .highlight-console .gp,
body:not([data-theme="light"]) .highlight-console .gp {
    color: #628a70;
}

.highlight-console .go {
    opacity: 0.5;
}
`;
