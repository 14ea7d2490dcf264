/* The OpenAPI description, assembled into the binary as bytes so that
 * GET /openapi.yaml needs no file at run time. */
	.section .rodata
	.global route_openapi_yaml
	.global route_openapi_yaml_end
	.balign 16
route_openapi_yaml:
	.incbin OPENAPI_PATH
route_openapi_yaml_end:
	.byte 0
	.section .note.GNU-stack,"",@progbits
