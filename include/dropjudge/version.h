/* The version of dropjudge, in one place: printed by `dropjudge --version`, in the start line of
 * `dropjudge serve` and wherever else it is shown. */
#ifndef DROPJUDGE_VERSION_H
#define DROPJUDGE_VERSION_H

#define DROPJUDGE_VERSION "2.0.0"

#endif
