/* The viewer's page, style sheet and script, assembled into the binary as
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
	.section .note.GNU-stack,"",@progbits
