/*
 * completion.c - `blobc completion bash|zsh|fish`: a shell's completion
 * script. The commands come from main.c's table; each command's options
 * are read from its own --help when a word is completed, so the scripts
 * never fall behind the options a command takes.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char completion_help[] =
    "Usage: blobc completion SHELL\n"
    "Print the completion script of SHELL (bash, zsh or fish) on standard output.\n"
    "\n"
    "  bash:  eval \"$(blobc completion bash)\"   (or save it in\n"
    "         ~/.local/share/bash-completion/completions/blobc)\n"
    "  zsh:   eval \"$(blobc completion zsh)\"    (in ~/.zshrc, after compinit)\n"
    "  fish:  blobc completion fish > ~/.config/fish/completions/blobc.fish\n"
    "\n"
    "Options: -h, --help; and --color, --max-input and --error-format, as every\n"
    "command.\n"
    "\n"
    "Commands complete after blobc, subcommands after gen and cache, options\n"
    "after '-' (as the command's --help lists them), the values of --input,\n"
    "--format, --color and --error-format, and file names elsewhere.\n";

/* The values some options take, for every shell: "option values". */
static const char *const option_values[] = {
    "--input yaml json csv tsv",
    "--format blob raw unity",
    "--color auto always never",
    "--error-format text json github sarif",
};
#define NVALUES (sizeof option_values / sizeof option_values[0])

/* A bash case per row ("word values..."): the values offered for the
 * word's next one; `sub` rows name a command, whose subcommand is the
 * word after it. */
static void bash_cases(FILE *out, const char *on, const char *const *rows, size_t n, bool sub) {
    fprintf(out, "    case \"$%s\" in\n", on);
    for (size_t i = 0; i < n; i++) {
        const char *sp = strchr(rows[i], ' ');
        const char *in = sub ? "    " : "";
        fprintf(out, "    %.*s)\n%s%s        COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n%s        return%s\n",
                (int)(sp - rows[i]), rows[i], sub ? "        if [ \"$COMP_CWORD\" -eq 2 ]; then\n" : "", in,
                sp + 1, in, sub ? "\n        fi\n        sub=${COMP_WORDS[2]} ;;" : " ;;");
    }
    fputs("    esac\n", out);
}

static void bash_function(FILE *out, const char *commands, const char *const *subs, size_t nsubs) {
    fprintf(out,
            "_blobc() {\n"
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
            "    local cmd=${COMP_WORDS[1]} sub= words\n"
            "    COMPREPLY=()\n"
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
            "        COMPREPLY=($(compgen -W \"%s help --help --version\" -- \"$cur\"))\n"
            "        return\n"
            "    fi\n",
            commands);
    bash_cases(out, "cmd", subs, nsubs, true);
    bash_cases(out, "prev", option_values, NVALUES, false);
    fputs("    if [[ $cur == -* ]]; then\n"
          "        words=$({ \"${COMP_WORDS[0]}\" \"$cmd\" $sub --help 2>/dev/null |\n"
          "                  grep -o -- '--[a-z][a-z-]*'\n"
          "                  printf '%s\\n' --help --color --max-input --error-format; } | sort -u)\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "        return\n"
          "    fi\n"
          "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "}\n"
          "complete -o filenames -F _blobc blobc\n",
          out);
}

static void fish_script(FILE *out, const char *commands, const char *const *subs, size_t nsubs) {
    fprintf(out,
            "# blobc completion for fish: blobc completion fish > ~/.config/fish/completions/blobc.fish\n"
            "function __blobc_options\n"
            "    set -l words (commandline -opc)\n"
            "    set -l sub\n"
            "    if contains -- $words[2] gen cache; and set -q words[3]\n"
            "        set sub $words[3]\n"
            "    end\n"
            "    $words[1] $words[2] $sub --help 2>/dev/null | string match -ar -- '--[a-z][a-z-]*' | sort -u\n"
            "    printf '%%s\\n' --help --color --max-input --error-format\n"
            "end\n"
            "complete -c blobc -f -n '__fish_use_subcommand' -a '%s help'\n",
            commands);
    for (size_t i = 0; i < nsubs; i++) {
        const char *sp = strchr(subs[i], ' ');
        fprintf(out, "complete -c blobc -f -n '__fish_seen_subcommand_from %.*s; and test (count (commandline -opc)) -eq 2' -a '%s'\n",
                (int)(sp - subs[i]), subs[i], sp + 1);
    }
    for (size_t i = 0; i < NVALUES; i++) {
        const char *sp = strchr(option_values[i], ' ');
        fprintf(out, "complete -c blobc -x -n '__fish_seen_subcommand_from %s' -l %.*s -a '%s'\n",
                commands, (int)(sp - option_values[i] - 2), option_values[i] + 2, sp + 1);
    }
    fputs("complete -c blobc -n 'not __fish_use_subcommand; and string match -q -- \"-*\" (commandline -ct)' -a '(__blobc_options)'\n",
          out);
}

int cmd_completion(int argc, char **argv, const char *commands, const char *const *subs, size_t nsubs) {
    args a;
    if (!parse_args("completion", argc, argv, NULL, &a)) return EXIT_USAGE;
    if (a.help) {
        put_help(completion_help);
        free(a.operands);
        return 0;
    }
    const char *shell = a.noperands == 1 ? a.operands[0] : NULL;
    int rc = 0;
    if (shell && strcmp(shell, "bash") == 0) {
        fputs("# blobc completion for bash: eval \"$(blobc completion bash)\"\n", stdout);
        bash_function(stdout, commands, subs, nsubs);
    } else if (shell && strcmp(shell, "zsh") == 0) {
        /* zsh runs the bash function through its bash compatibility */
        fputs("# blobc completion for zsh: eval \"$(blobc completion zsh)\" after compinit\n"
              "autoload -U +X bashcompinit && bashcompinit\n",
              stdout);
        bash_function(stdout, commands, subs, nsubs);
    } else if (shell && strcmp(shell, "fish") == 0) {
        fish_script(stdout, commands, subs, nsubs);
    } else if (a.noperands > 1) {
        usage_error("completion", "expected one shell, got %d words", a.noperands);
        rc = EXIT_USAGE;
    } else {
        usage_error("completion", "expected a shell: bash, zsh or fish%s%s", shell ? ", not " : "",
                    shell ? shell : "");
        rc = EXIT_USAGE;
    }
    free(a.operands);
    return rc;
}
