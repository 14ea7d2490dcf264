/* The files a package copies as they are (accepted solutions, the fixed
 * sources of the checker and validators, and the service's comparison that
 * the checker embeds), assembled into the binary as bytes so that
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
	blob pkg_checker_c, "src/package/files/checker.c"
	blob pkg_md_validator, "src/package/files/md_validator.c"
	blob pkg_puyo_validator, "src/package/files/puyo_validator.c"
	blob pkg_judge_h, "include/dropjudge/judge.h"
	blob pkg_judge_c, "src/core/judge.c"
	.section .note.GNU-stack,"",@progbits
