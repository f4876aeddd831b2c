complete --keep-order --exclusive --command hermes-hooks --arguments "(COMPLETE=fish hermes-hooks -- (commandline --current-process --tokenize --cut-at-cursor) (commandline --current-token))"
