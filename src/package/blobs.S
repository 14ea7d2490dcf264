/* The files a package copies as they are (accepted solutions, the checker
 * and validator wrapper source), assembled into the binary as bytes so that
 * `dropjudge package` needs no file at run time. Paths are from the
 * repository root, where make runs. */
	.section .rodata
	.macro blob name, path
	.global \name
	.global \name\()_end
	.balign 16
\name:
	.incbin "\path"
\name\()_end:
	.byte 0
	.endm
	blob pkg_md_solution, "src/package/files/md_solution.c"
	blob pkg_puyo_solution, "src/package/files/puyo_solution.c"
	blob pkg_wrapper_c, "src/package/files/wrapper.c"
	blob pkg_run_sh, "src/package/files/run.sh"
	.section .note.GNU-stack,"",@progbits
