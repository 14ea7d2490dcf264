/* The viewer's page, style sheet, script and icon, and the API reference
 * (docs.html, written by scripts/api-docs.mjs) with its style sheet, assembled into the binary as
 * bytes so that GET / needs no file at run time. The assembler finds the
 * files on its include path (-Wa,-Isrc/www). */
	.section .rodata
	.global www_index_html
	.global www_index_html_end
	.global www_viewer_css
	.global www_viewer_css_end
	.global www_viewer_js
	.global www_viewer_js_end
	.balign 16
www_index_html:
	.incbin "index.html"
www_index_html_end:
	.byte 0
	.balign 16
www_viewer_css:
	.incbin "viewer.css"
www_viewer_css_end:
	.byte 0
	.balign 16
www_viewer_js:
	.incbin "viewer.js"
www_viewer_js_end:
	.byte 0
	.balign 16
	.global www_favicon_svg
	.global www_favicon_svg_end
www_favicon_svg:
	.incbin "favicon.svg"
www_favicon_svg_end:
	.byte 0
	.balign 16
	.global www_docs_html
	.global www_docs_html_end
www_docs_html:
	.incbin "docs.html"
www_docs_html_end:
	.byte 0
	.balign 16
	.global www_docs_css
	.global www_docs_css_end
www_docs_css:
	.incbin "docs.css"
www_docs_css_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
